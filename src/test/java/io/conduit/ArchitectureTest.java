package io.conduit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dependencies point inward: the engine ({@code graph}, {@code checkpoint}) knows nothing around it; the agent knows
 * the engine; the edges of the world (llm, tools, persistence, files, runs, api, http, stream) use the agent's ports and
 * messages, never its stages, and never each other's insides where a port exists. Under them all, the kernel (ids, the
 * JSON codec) is for every layer and depends on none.
 */
class ArchitectureTest {

    private static final String[] ENGINE = {"io.conduit.graph..", "io.conduit.checkpoint.."};
    private static final String[] EDGES = {"io.conduit.llm..", "io.conduit.tools..", "io.conduit.persistence..",
            "io.conduit.runs..", "io.conduit.api..", "io.conduit.stream..", "io.conduit.files..", "io.conduit.http..", "io.conduit.auth.."};

    private static final String[] DOORS = {"io.conduit.api..", "io.conduit.stream..", "io.conduit.agui..", "io.conduit.aisdk..",
            "io.conduit.completions..", "io.conduit.mcp..", "io.conduit.a2a.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        // Only the names of the classes depended on are needed: skipping their resolution keeps ArchUnit from
        // reading JDK classes newer than its bundled ASM understands (noisy warnings on Java 25).
        ArchConfiguration config = ArchConfiguration.get();
        boolean resolve = config.resolveMissingDependenciesFromClassPath();
        config.setResolveMissingDependenciesFromClassPath(false);
        try {
            classes = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("io.conduit");
        } finally {
            config.setResolveMissingDependenciesFromClassPath(resolve);
        }
    }

    @Test
    void theRulesSeeEveryLayer() {
        // guards against the rules passing vacuously
        for (String p : new String[]{"kernel", "graph", "checkpoint", "agent", "agent.message", "agent.port", "llm", "tools", "persistence", "api", "http", "stream", "store",
                "runs", "runs.memory", "runs.graphs", "runs.submission", "runs.worker", "runs.events", "runs.wire", "runs.delivery", "runs.usage", "runs.crons", "runs.cluster", "runs.housekeeping",
                "agui", "aisdk", "completions", "mcp", "a2a", "http.answer", "auth",
                "files", "telemetry", "webhooks", "blueprints.tutor", "blueprints.analyst", "blueprints.assistant", "blueprints.request"}) {
            assertThat(classes.containPackage("io.conduit." + p)).as(p).isTrue();
        }
        assertThat(classes.contain(io.conduit.graph.CompiledGraph.class)).isTrue();
        assertThat(classes.stream().anyMatch(c -> c.getSimpleName().endsWith("Test"))).isFalse();
    }

    /** The layers docs/architecture.md draws, each using only those inside it (the kernel is beneath them all). */
    @Test
    void theLayersAreTheOnesTheArchitecturePageDraws() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("kernel").definedBy("io.conduit.kernel..")
                .layer("engine").definedBy(concat(ENGINE, "io.conduit.store.."))
                .layer("agent").definedBy("io.conduit.agent..")
                .layer("serving").definedBy("io.conduit.runs..", "io.conduit.auth..")
                .layer("edges").definedBy("io.conduit.llm..", "io.conduit.tools..", "io.conduit.persistence..", "io.conduit.files..",
                        "io.conduit.blueprints..", "io.conduit.telemetry..", "io.conduit.webhooks..")
                .layer("front-door kit").definedBy("io.conduit.http..")
                .layer("front doors").definedBy(DOORS)
                .layer("main").definedBy("io.conduit")
                .whereLayer("main").mayNotBeAccessedByAnyLayer()
                .whereLayer("front doors").mayOnlyBeAccessedByLayers("main")
                .whereLayer("front-door kit").mayOnlyBeAccessedByLayers("front doors", "main")
                .whereLayer("edges").mayOnlyBeAccessedByLayers("front-door kit", "front doors", "main")
                .whereLayer("serving").mayOnlyBeAccessedByLayers("edges", "front-door kit", "front doors", "main")
                .whereLayer("agent").mayOnlyBeAccessedByLayers("serving", "edges", "front-door kit", "front doors", "main")
                .whereLayer("engine").mayOnlyBeAccessedByLayers("agent", "serving", "edges", "front-door kit", "front doors", "main")
                .check(classes);
    }

    /** Every package, the rooms of the serving layer included, is its own slice, and no two depend on each other. */
    @Test
    void noPackageCycles() {
        slices().matching("io.conduit.(**)").should().beFreeOfCycles().check(classes);
    }

    /**
     * The serving layer's rooms: the run model and its ports at the bottom; the stores in memory, the graphs, the
     * event log and the shared wire JSON over it; the worker over those; submission over the worker; delivery, read
     * by the transports only, at the top; nothing in serving knows a wire format's translator.
     */
    @Test
    void theServingRoomsPointOneWay() {
        noClasses().that().resideInAPackage("io.conduit.runs")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.runs.(*)..")
                .because("the run model and its ports are what every room shares").check(classes);
        noClasses().that().resideInAnyPackage("io.conduit.runs..").and().resideOutsideOfPackage("io.conduit.runs.delivery..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.runs.delivery..")
                .because("delivery (outboxes, permits) serves the transports; nothing in serving waits on a client").check(classes);
        noClasses().that().resideInAnyPackage("io.conduit.runs.worker..", "io.conduit.runs.events..", "io.conduit.runs.graphs..",
                        "io.conduit.runs.memory..", "io.conduit.runs.wire..", "io.conduit.runs.usage..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.runs.submission..")
                .because("submission starts runs on the worker, not the other way round").check(classes);
        noClasses().that().resideInAnyPackage("io.conduit.runs.events..", "io.conduit.runs.wire..", "io.conduit.runs.memory..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.runs.worker..", "io.conduit.runs.graphs..")
                .because("the log keeps what the worker appends; it does not know who appends").check(classes);
    }

    @Test
    void theAssistantBlueprintIsBuiltFromTheEngineTheStagesAndThePortsOnly() {
        assertThat(classes.containPackage("io.conduit.blueprints.assistant")).isTrue();
        noClasses().that().resideOutsideOfPackage("io.conduit.blueprints.assistant..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.blueprints.assistant..")
                .because("a blueprint registers itself (a RegisteredGraph bean): nothing else knows it")
                .check(classes);
        noClasses().that().resideInAPackage("io.conduit.blueprints.assistant..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.api..", "io.conduit.stream..", "io.conduit.llm..",
                        "io.conduit.persistence..")
                .because("its memory is behind its own AssistantMemory over the agent's port; it is served like any graph")
                .check(classes);
    }

    @Test
    void theKernelDependsOnNothingButTheJdkAndJackson() {
        classes().that().resideInAPackage("io.conduit.kernel..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.conduit.kernel..", "java..", "com.fasterxml.jackson..")
                .because("every layer, the engine included, may use the kernel, so it can use none of them nor any framework")
                .check(classes);
    }

    @Test
    void theEngineRunsWithoutAnyFramework() {
        noClasses().that().resideInAnyPackage(ENGINE)
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "dev.langchain4j..", "jakarta..")
                .because("the engine and its store interface are plain Java on Mutiny and Jackson")
                .check(classes);
    }

    @Test
    void theStoreIsAnInnerLayer() {
        noClasses().that().resideInAPackage("io.conduit.store..")
                .should().dependOnClassesThat().resideInAnyPackage(concat(EDGES, "io.conduit.agent..", "io.conduit.graph.."))
                .check(classes);
    }

    @Test
    void theCheckpointPackageDoesNotKnowTheEngine() {
        noClasses().that().resideInAPackage("io.conduit.checkpoint..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.graph..")
                .because("stores persist records; the engine builds on them, not the other way round")
                .check(classes);
    }

    @Test
    void theEngineDoesNotKnowWhatIsBuiltOnIt() {
        noClasses().that().resideInAnyPackage(ENGINE)
                .should().dependOnClassesThat().resideInAnyPackage(concat(EDGES, "io.conduit.agent.."))
                .because("the agent and the service plug into the engine through its interfaces")
                .check(classes);
    }

    @Test
    void messagesAndPortsDoNotKnowTheStages() {
        noClasses().that().resideInAnyPackage("io.conduit.agent.message..", "io.conduit.agent.port..")
                .should().dependOnClassesThat().resideInAnyPackage(concat(EDGES))
                .orShould().dependOnClassesThat().resideInAPackage("io.conduit.agent")
                .because("messages and ports are what the stages and the edges share")
                .check(classes);
        noClasses().that().resideInAPackage("io.conduit.agent.message..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.agent.port..")
                .because("messages are the innermost vocabulary")
                .check(classes);
    }

    @Test
    void theAgentDoesNotKnowTheEdgesOfTheWorld() {
        noClasses().that().resideInAPackage("io.conduit.agent..")
                .should().dependOnClassesThat().resideInAnyPackage(EDGES)
                .because("the stages reach models, tools and memory through the ports only")
                .check(classes);
    }

    @Test
    void modelsToolsAndStoresUseTheAgentsPortsNotItsStages() {
        noClasses().that().resideInAnyPackage("io.conduit.llm..", "io.conduit.tools..", "io.conduit.persistence..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.agent")
                .because("they implement the agent's ports; its stages and graph are its own business")
                .check(classes);
    }

    @Test
    void theServingLayerUsesTheGraphsNotTheStagesInsideThem() {
        noClasses().that().resideInAnyPackage(EDGES)
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.conduit.agent")
                        .and(JavaClass.Predicates.simpleNameEndingWith("Stage")))
                .because("a run is served the same way whatever stages its graph has")
                .check(classes);
    }

    @Test
    void modelsToolsAndStoresDoNotKnowTheServingLayer() {
        noClasses().that().resideInAnyPackage("io.conduit.llm..", "io.conduit.tools..", "io.conduit.persistence..", "io.conduit.runs..",
                        "io.conduit.files..", "io.conduit.auth..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.api..", "io.conduit.http..", "io.conduit.stream..")
                .because("the transports are adapters over the runs, not the other way round")
                .check(classes);
    }

    @Test
    void theTransportsDoNotKnowEachOther() {
        noClasses().that().resideInAPackage("io.conduit.api..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.stream..")
                .because("the Agent Server API and the thread protocol are two adapters side by side over the runs")
                .check(classes);
        noClasses().that().resideInAPackage("io.conduit.stream..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.api..")
                .because("the thread protocol is an adapter over the runs, not over the Agent Server API")
                .check(classes);
        noClasses().that().resideInAPackage("io.conduit.http..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.api..", "io.conduit.stream..", "io.conduit.agui..",
                        "io.conduit.aisdk..", "io.conduit.completions..", "io.conduit.mcp..", "io.conduit.a2a..")
                .because("the front-door kit is what every door shares, so it knows none of them")
                .check(classes);
    }


    @Test
    void blueprintsBuildOnTheInnerLayersOnly() {
        noClasses().that().resideInAPackage("io.conduit.blueprints..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.llm..", "io.conduit.persistence..", "io.conduit.api..",
                        "io.conduit.http..", "io.conduit.stream..")
                .orShould().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.conduit.runs..")
                        .and(DescribedPredicate.not(REGISTRATION)))
                .because("a blueprint is a graph on the engine, the stages and the ports; it registers itself with a RegisteredGraph "
                        + "and reaches models and memory through their interfaces (its own tools it may build from the tools package)")
                .allowEmptyShould(true) // before the first blueprint
                .check(classes);
    }

    @Test
    void blueprintsReachTheirTablesThroughPorts() {
        // a package the Postgres stores use, so a misspelt name cannot let the rule pass
        assertThat(classes.get(io.conduit.persistence.PostgresCourseGuides.class).getDirectDependenciesFromSelf())
                .anyMatch(d -> d.getTargetClass().getPackageName().equals("io.vertx.mutiny.sqlclient"));
        noClasses().that().resideInAPackage("io.conduit.blueprints..")
                .should().dependOnClassesThat().resideInAnyPackage("io.vertx.sqlclient..", "io.vertx.mutiny.sqlclient..",
                        "io.vertx.pgclient..", "io.vertx.mutiny.pgclient..")
                .because("a blueprint's table is behind a port of its own (the tutor's CourseGuides), implemented in persistence "
                        + "like every store, so the blueprint is tested without a database")
                .check(classes);
    }

    @Test
    void nothingDependsOnABlueprint() {
        noClasses().that().resideOutsideOfPackages("io.conduit.blueprints..", "io.conduit.persistence..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.blueprints..")
                .because("a blueprint is added or removed without a change elsewhere")
                .allowEmptyShould(true)
                .check(classes);
        noClasses().that().resideInAPackage("io.conduit.persistence..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.conduit.blueprints..")
                        .and(DescribedPredicate.not(JavaClass.Predicates.INTERFACES)))
                .because("of a blueprint, the stores know only the ports they implement (the tutor's CourseGuides): its tables "
                        + "are behind them, since a blueprint uses no SQL client; removing it removes those adapters too")
                .allowEmptyShould(true)
                .check(classes);
        for (JavaClass c : classes) {
            String own = blueprint(c.getPackageName());
            if (own == null) {
                continue;
            }
            c.getDirectDependenciesFromSelf().forEach(d -> {
                String other = blueprint(d.getTargetClass().getPackageName());
                assertThat(other == null || other.equals(own)).as(c.getName() + " depends on the blueprint " + other).isTrue();
            });
        }
    }


    /**
     * The front doors beside the Agent Server API (AG-UI, the AI SDK's UI message stream, OpenAI's chat completions, A2A):
     * each is a thin adapter over the runs (RunSubmission, the event logs, the shared delivery) and the front-door kit
     * ({@code io.conduit.http}, what every door shares), so nothing builds on one, and none reaches into the stages,
     * the other transports or the edges.
     */
    @ParameterizedTest
    @ValueSource(strings = {"io.conduit.agui", "io.conduit.aisdk", "io.conduit.completions", "io.conduit.a2a"})
    void aFrontDoorIsAThinAdapterOverTheRunsThatNothingKnows(String door) {
        assertThat(classes.containPackage(door)).isTrue();
        noClasses().that().resideOutsideOfPackage(door + "..")
                .should().dependOnClassesThat().resideInAPackage(door + "..")
                .because("a front door is added or removed without a change elsewhere")
                .check(classes);
        noClasses().that().resideInAPackage(door + "..")
                .should().dependOnClassesThat().resideInAnyPackage("io.conduit.api..", "io.conduit.stream..", "io.conduit.llm..", "io.conduit.tools..",
                        "io.conduit.persistence..", "io.conduit.files..", "io.conduit.blueprints..")
                .orShould().dependOnClassesThat().resideInAPackage("io.conduit.agent")
                .because("it starts runs through RunSubmission and reads their events from the logs through the shared delivery; "
                        + "it may read messages and ports, never the stages; what it shares with the other doors is in io.conduit.http")
                .check(classes);
    }

    /** What a blueprint may use of the serving layer: the record that registers it and the input check's rules and failure. */
    private static final DescribedPredicate<JavaClass> REGISTRATION = DescribedPredicate.describe("RegisteredGraph, ChatInput, InputText or InvalidInputException",
            c -> c.getName().startsWith("io.conduit.runs.graphs.RegisteredGraph") || c.getName().equals("io.conduit.runs.InvalidInputException")
                    || c.getName().equals("io.conduit.runs.InputText") || c.getName().equals("io.conduit.runs.graphs.ChatInput"));

    /** {@code io.conduit.blueprints.<name>} of a package inside a blueprint, or null. */
    private static String blueprint(String pkg) {
        String prefix = "io.conduit.blueprints.";
        if (!pkg.startsWith(prefix)) {
            return null;
        }
        int dot = pkg.indexOf('.', prefix.length());
        return dot < 0 ? pkg : pkg.substring(0, dot);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
