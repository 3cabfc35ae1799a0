package io.conduit.blueprints.analyst;

import io.conduit.agent.AgentState;
import io.conduit.agent.MessageRules;
import io.conduit.agent.port.LanguageModel;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.files.FileStore;
import io.conduit.runs.graphs.ChatInput;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.tools.Redactor;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolsConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Registers the analyst (graph id {@code analyst}): served beside the default assistant, as every {@link RegisteredGraph} bean is. */
@ApplicationScoped
public class AnalystGraphProducer {

    private static final int MAX_CHARS = 32_000;

    @Produces
    @Singleton
    RegisteredGraph analyst(AnalystConfig config, LanguageModel model, FileStore files, ToolsConfig tools, Checkpointer store) {
        // the tools' own executor: the service's policy (timeouts, retries, concurrency, output size) and redaction
        var box = AnalystTools.box(files, config, ToolExecutor.Policy.of(tools), new Redactor(tools.redact().orElse(List.of()), List.of()));
        return new RegisteredGraph(AnalystGraph.GRAPH_ID,
                "A data analyst: answers questions over the thread's uploaded CSV files with filter, aggregate, statistics, search and compare tools",
                () -> AnalystGraph.compile(model, box, files, config, store), INPUT,
                Map.of("type", "object", "properties", Map.of("user_id", Map.of("type", "string"))), configurable -> null);
    }

    /** A turn of chat messages (and the run's user), as the default assistant takes them. */
    static final ChatInput INPUT = new ChatInput(new MessageRules(MAX_CHARS, Integer.MAX_VALUE), 256,
            Set.of(AgentState.MESSAGES.name(), AgentState.USER_ID.name()));
}
