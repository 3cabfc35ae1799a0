package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.MessageRules;
import io.conduit.agent.port.LanguageModel;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.Update;
import io.conduit.runs.graphs.ChatInput;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.tools.ReachableAddresses;
import io.conduit.tools.ToolsConfig;
import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** Registers the tutor (graph id {@code tutor}): served beside the default assistant, as every {@link RegisteredGraph} bean is. */
@ApplicationScoped
public class TutorGraphProducer {

    private static final Logger LOG = Logger.getLogger(TutorGraphProducer.class);
    private static final int MAX_CHARS = 32_000;

    @Produces
    @Singleton
    RegisteredGraph tutor(TutorConfig config, LanguageModel model, Checkpointer store, Instance<CourseGuides> guides,
                          @ConfigProperty(name = "conduit.checkpointer.store", defaultValue = "memory") String storeKind,
                          ToolsConfig toolsConfig) {
        CourseSources sources = CourseSources.of(config, LaunchMode.current() == LaunchMode.DEVELOPMENT, model.scripted());
        if (sources.byDefault()) {
            LOG.warn(sources.describe());
        } else {
            LOG.info(sources.describe());
        }
        TutorTools tools = TutorTools.of(config, sources, guides::get, "postgres".equalsIgnoreCase(storeKind.strip()),
                ReachableAddresses.publicAnd(toolsConfig.privateAddresses().orElse(java.util.List.of())));
        return new RegisteredGraph(TutorGraph.GRAPH_ID,
                "A course tutor: rates each question, answers from the course material (rag_search, get_guide), quizzes the student",
                () -> TutorGraph.compile(model, tools, config, store), INPUT, configSchema(), TutorGraphProducer::configProblem);
    }

    /** Input the client may set: a turn of messages, the subject, and the run's user; the rest is the tutor's own. */
    private static final ChatInput INPUT = new ChatInput(new MessageRules(MAX_CHARS, Integer.MAX_VALUE), 256,
            Set.of(AgentState.MESSAGES.name(), TutorState.SUBJECT.name(), AgentState.USER_ID.name()));

    static void check(Update input) {
        INPUT.check(input);
    }

    private static Map<String, Object> configSchema() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("subject", Map.of("type", "string", "description", "the course's subject; the tools search only its material"));
        props.put("user_id", Map.of("type", "string"));
        return Map.of("type", "object", "properties", props);
    }

    static String configProblem(Map<String, Object> configurable) {
        Object subject = configurable.get("subject");
        if (subject != null && (!(subject instanceof String s) || s.isBlank() || s.length() > 256)) {
            return "config.configurable.subject must be a non-empty string of at most 256 characters";
        }
        return null;
    }

}
