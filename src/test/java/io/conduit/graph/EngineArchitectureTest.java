package io.conduit.graph;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine ({@code io.conduit.graph}) and its store interface ({@code io.conduit.checkpoint}) are plain Java on
 * Mutiny and Jackson: no framework, no knowledge of the service around them. The checkpoint package sits below the
 * engine and does not know it.
 */
class EngineArchitectureTest {

    private static final String[] CORE = {"io.conduit.graph..", "io.conduit.checkpoint.."};

    private static JavaClasses classes;

    @BeforeAll
    static void importMainClasses() {
        // The rules need only the names of the classes depended on, not their class files: skipping the resolution
        // keeps ArchUnit from reading JDK classes newer than its bundled ASM understands (noisy warnings on Java 25).
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
    void theMainClassesOfBothPackagesAreImported() {
        // guards against the rules passing vacuously
        assertThat(classes.containPackage("io.conduit.graph")).isTrue();
        assertThat(classes.containPackage("io.conduit.checkpoint")).isTrue();
        assertThat(classes.contain(RunLoop.class)).isTrue();
        assertThat(classes.contain(io.conduit.checkpoint.InMemoryCheckpointer.class)).isTrue();
        assertThat(classes.contain(MessageListTest.class)).isFalse();
    }

    @Test
    void theEngineDoesNotDependOnQuarkusVertxOrLangChain4j() {
        ArchRule rule = noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "dev.langchain4j..")
                .because("the engine and its store interface run without any framework");
        rule.check(classes);
    }

    @Test
    void theCheckpointPackageDoesNotDependOnTheEngine() {
        ArchRule rule = noClasses().that().resideInAPackage("io.conduit.checkpoint..")
                .should().dependOnClassesThat().resideInAPackage("io.conduit.graph..")
                .because("stores persist records; the engine builds on them, not the other way round");
        rule.check(classes);
    }

    @Test
    void theEngineDoesNotDependOnTheServiceAroundIt() {
        ArchRule rule = noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "io.conduit.persistence..", "io.conduit.api..", "io.conduit.agent..",
                        "io.conduit.llm..", "io.conduit.tools..", "io.conduit.transport..")
                .because("the service plugs into the engine through its interfaces");
        rule.check(classes);
    }
}
