package io.conduit.blueprints.tutor;

import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolSpec;
import io.conduit.tools.HttpTool;
import io.conduit.tools.ReachableAddresses;
import io.conduit.tools.Redactor;
import io.conduit.tools.Tool;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The tutor's own tools, apart from the service's (the default assistant does not see them): {@code rag_search}, an
 * {@link HttpTool} against the retrieval service, and {@code get_guide}, an HTTP tool or the guides on file. Both take
 * the subject from the run's state (an injected argument), never from the model. They run through a
 * {@link ToolExecutor} of their own: schema checks, timeout, retries, redaction. {@code generate_test} is not a tool
 * that runs: calling it routes the tutor into its quiz.
 */
final class TutorTools {

    static final String RAG_SEARCH = "rag_search";
    static final String GET_GUIDE = "get_guide";
    static final String GENERATE_TEST = "generate_test";
    static final String GUIDE_DESCRIPTION = "The teaching guide of the course: its goals, outline and how it wants topics explained.";
    static final String GUIDE_SCHEMA = """
            {"type":"object","properties":{"subject":{"type":"string","minLength":1}},"required":["subject"],"additionalProperties":false}""";
    static final String RAG_DESCRIPTION = "Search the course material for passages about a query. Returns the passages with their sources.";
    static final String RAG_SCHEMA = """
            {"type":"object","properties":{"query":{"type":"string","minLength":1,"description":"what to look for in the course material"},
             "subject":{"type":"string","minLength":1},
             "top_k":{"type":"integer","minimum":1,"maximum":20,"description":"how many passages"}},
             "required":["query","subject"],"additionalProperties":false}""";
    private static final ToolSpec GENERATE_TEST_SPEC = new ToolSpec(GENERATE_TEST,
            "Start a multiple-choice quiz for the student on a topic of the course. Use it when the student asks to be tested or quizzed.",
            """
            {"type":"object","properties":{"topic":{"type":"string","minLength":1},"num_questions":{"type":"integer","minimum":1,"maximum":10}},
             "required":["topic"],"additionalProperties":false}""");

    private final ToolBox box;
    private final List<ToolSpec> specs;

    private TutorTools(ToolBox box) {
        this.box = box;
        List<ToolSpec> all = new ArrayList<>(box.specs());
        all.add(GENERATE_TEST_SPEC);
        this.specs = List.copyOf(all);
    }

    /**
     * Tools made from the configuration, reading the material where {@code sources} says; {@code guides} is asked for
     * only when the guide is on file in Postgres, which needs the Postgres store ({@code onPostgres}: its migrations
     * make the table).
     */
    static TutorTools of(TutorConfig config, CourseSources sources, Supplier<CourseGuides> guides, boolean onPostgres,
                         ReachableAddresses addresses) {
        TutorConfig.Retrieval r = config.retrieval();
        Set<String> hosts = new LinkedHashSet<>();
        List<Tool> tools = new ArrayList<>();
        // made only for an HTTP source: a JDK client sets up TLS as it is built, a tenth of a start-up the demo course never needs
        HttpClient client = !sources.builtinSearch() || sources.guide().equals(CourseSources.HTTP)
                ? HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).followRedirects(HttpClient.Redirect.NEVER).build() : null;
        BuiltinCourse course = sources.builtinSearch() || sources.guide().equals(CourseSources.BUILTIN) ? BuiltinCourse.load() : null;
        if (sources.builtinSearch()) {
            tools.add(new BuiltinCourseSearch(course, r.topK()));
        } else {
            hosts.add(host(sources.url()));
            tools.add(new HttpTool(RAG_SEARCH, new HttpToolSettings(sources.url(), "POST", RAG_DESCRIPTION, RAG_SCHEMA,
                    List.of("subject"), r.timeout(), r.headers(), r.maxResponseChars()), hosts, addresses, client, r.timeout()));
        }
        TutorConfig.Guide g = config.guide();
        switch (sources.guide()) {
            case CourseSources.HTTP -> {
                String url = g.url().orElseThrow(() -> new IllegalStateException(
                        "conduit.blueprints.tutor.guide.source=http needs conduit.blueprints.tutor.guide.url"));
                hosts.add(host(url));
                tools.add(new HttpTool(GET_GUIDE, new HttpToolSettings(url, "GET", GUIDE_DESCRIPTION, GUIDE_SCHEMA, List.of("subject"),
                        g.timeout(), g.headers(), r.maxResponseChars()), hosts, addresses, client, g.timeout()));
            }
            case CourseSources.POSTGRES -> {
                if (!onPostgres) {
                    throw new IllegalStateException("conduit.blueprints.tutor.guide.source=postgres needs conduit.checkpointer.store=postgres");
                }
                tools.add(new StoredCourseGuide(guides.get()));
            }
            case CourseSources.BUILTIN -> tools.add(new BuiltinCourseGuide(course));
            default -> {
                // none: no get_guide
            }
        }
        ToolRegistry registry = new ToolRegistry(tools);
        ToolExecutor.Policy policy = new ToolExecutor.Policy(r.timeout(), r.maxAttempts(), Duration.ofMillis(200), Duration.ofSeconds(2), 32, 16_000);
        return new TutorTools(new ToolExecutor(registry, policy, new Redactor(List.of(), registry.secrets())));
    }

    ToolBox box() {
        return box;
    }

    /** What the answering model may call: the tools, then generate_test. */
    List<ToolSpec> specs() {
        return specs;
    }

    private static String host(String url) {
        String h = URI.create(url.replaceAll("\\{[A-Za-z0-9_]+}", "x")).getHost();
        if (h == null) {
            throw new IllegalStateException("the tutor's URL " + url + " has no host");
        }
        return h.toLowerCase(Locale.ROOT);
    }
}
