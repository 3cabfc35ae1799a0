package io.conduit.blueprints.tutor;

import io.conduit.agent.port.LanguageModel;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.StateGraph;

/**
 * The tutor:
 * <pre>
 * think -> answer -+-> END                  (answered)
 *                  +-> tools -> answer      (rag_search, get_guide)
 *                  +-> test_session -> END  (generate_test: the quiz subgraph, see {@link QuizGraph})
 * </pre>
 */
public final class TutorGraph {

    public static final String GRAPH_ID = "tutor";
    static final String TOOLS = "tools";
    static final String TEST_SESSION = "test_session";

    private TutorGraph() {
    }

    static StateGraph define(LanguageModel model, TutorTools tools, TutorConfig config) {
        return StateGraph.of(TutorState.SCHEMA)
                .node("think", new ThinkNode(model, config))
                .node("answer", new AnswerNode(model, tools, config))
                .node(TOOLS, new ToolsNode(tools, config))
                .node(TEST_SESSION, QuizGraph.compile(model, tools, config))
                .edge(StateGraph.START, "think")
                .edge("think", "answer")
                .route("answer", AnswerNode::route, TOOLS, TEST_SESSION, StateGraph.END)
                .edge(TOOLS, "answer")
                .edge(TEST_SESSION, StateGraph.END);
    }

    static CompiledGraph compile(LanguageModel model, TutorTools tools, TutorConfig config, Checkpointer store) {
        return define(model, tools, config).compile(GraphOptions.with(store).recursionLimit(config.recursionLimit()));
    }
}
