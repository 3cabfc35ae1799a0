package io.conduit.blueprints.analyst;

import io.conduit.agent.ToolExecutorStage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.files.FileStore;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.StateGraph;

/**
 * The analyst:
 * <pre>
 * load_metadata -> agent -+-> tools (one task per call) -> agent     (at most max-iterations rounds)
 *                         +-> save_messages -> END
 * </pre>
 */
public final class AnalystGraph {

    public static final String GRAPH_ID = "analyst";
    static final String TOOLS = "tools";
    static final String SAVE_MESSAGES = "save_messages";

    private AnalystGraph() {
    }

    static StateGraph define(LanguageModel model, ToolBox tools, FileStore files, AnalystConfig config) {
        return StateGraph.of(AnalystState.SCHEMA)
                .node("load_metadata", new LoadMetadataNode(files))
                .node("agent", new AgentNode(model, tools, config))
                .node(TOOLS, new ToolExecutorStage(tools))
                .node(SAVE_MESSAGES, new SaveMessagesNode())
                .edge(StateGraph.START, "load_metadata")
                .edge("load_metadata", "agent")
                .route("agent", AgentNode::route, TOOLS, SAVE_MESSAGES)
                .edge(TOOLS, "agent")
                .edge(SAVE_MESSAGES, StateGraph.END);
    }

    static CompiledGraph compile(LanguageModel model, ToolBox tools, FileStore files, AnalystConfig config, Checkpointer store) {
        return define(model, tools, files, config).compile(GraphOptions.with(store).recursionLimit(config.recursionLimit()));
    }
}
