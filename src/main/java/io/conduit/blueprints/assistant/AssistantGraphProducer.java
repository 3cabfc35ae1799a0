package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.DatedSystemPrompt;
import io.conduit.agent.FollowUpStage;
import io.conduit.agent.MessageRules;
import io.conduit.agent.port.LanguageModel;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.runs.graphs.ChatInput;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.store.Store;
import io.conduit.tools.CurrentTimeTool;
import io.conduit.tools.Redactor;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolRegistry;
import io.conduit.tools.ToolsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Registers the assistant blueprint (graph id {@code assistant}); served beside the default assistant like every {@link RegisteredGraph} bean. */
@ApplicationScoped
public class AssistantGraphProducer {

    @Produces
    @Singleton
    RegisteredGraph assistant(AssistantConfig config, LanguageModel model, Store longTerm, CurrentTimeTool time,
                              ToolsConfig toolsConfig, Checkpointer store) {
        AssistantMemory memory = new AssistantMemoryOverStore(longTerm);
        // the blueprint's own tools, apart from the service's: the default assistant does not see them
        ToolExecutor tools = new ToolExecutor(new ToolRegistry(List.of(new SearchMemoryTool(memory), new AddMemoryTool(memory), time)),
                ToolExecutor.Policy.of(toolsConfig), new Redactor(toolsConfig.redact().orElse(List.of()), Set.of()));
        return new RegisteredGraph(AssistantGraph.GRAPH_ID,
                "A personal assistant: long-term memory per user, a supervisor that hands work to sub-agents, follow-up suggestions",
                () -> AssistantGraph.compile(config, model, tools, memory, Clock.systemUTC(), store),
                input(config.maxMessageChars()), CONFIG_SCHEMA, AssistantGraphProducer::configProblem);
    }

    static final Map<String, Object> CONFIG_SCHEMA = schema();

    /** A turn of chat messages (and the run's user), as the default assistant takes them. */
    static ChatInput input(int maxChars) {
        return new ChatInput(new MessageRules(maxChars, Integer.MAX_VALUE), 256, Set.of(AgentState.MESSAGES.name(), AgentState.USER_ID.name()));
    }

    static String configProblem(Map<String, Object> configurable) {
        String zone = DatedSystemPrompt.checkZone(configurable.get(DatedSystemPrompt.TIMEZONE));
        if (zone != null) {
            return zone;
        }
        Object s = configurable.get(FollowUpStage.SETTING);
        return s == null || s instanceof Boolean ? null : "suggestions must be true or false";
    }

    private static Map<String, Object> schema() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("user_id", Map.of("type", "string", "description", "The user of the run: memories and skills are theirs alone"));
        props.put("timezone", Map.of("type", "string", "description", "The user's IANA time zone (Europe/Paris); unset: UTC"));
        props.put("suggestions", Map.of("type", "boolean", "description", "Propose follow-up questions after each answer (default true)"));
        return Map.of("type", "object", "title", "Configurable", "properties", props);
    }
}
