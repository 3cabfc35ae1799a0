package io.conduit.blueprints.tutor;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs rag_search for each of the quiz's queries at once (the subject injected from state) and adds what they find
 * to {@code context}. A query that fails or times out only finds nothing: the quiz is written from the rest.
 */
final class RetrieveNode implements Node {

    private final TutorTools tools;
    private final TutorConfig config;

    RetrieveNode(TutorTools tools, TutorConfig config) {
        this.tools = tools;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        ToolScope scope = ToolsNode.scope(state, ctx);
        List<String> queries = state.get(TutorState.QUIZ).queries();
        if (queries.isEmpty()) {
            return Uni.createFrom().item(Update.none());
        }
        List<Uni<ToolRun.Done>> calls = new ArrayList<>();
        for (int i = 0; i < queries.size(); i++) {
            String args = JsonCodec.MAPPER.valueToTree(Map.of("query", queries.get(i))).toString();
            calls.add(ToolRun.call(tools.box(), new ToolCall(ctx.taskId() + "-q" + i, TutorTools.RAG_SEARCH, args), scope, ctx,
                    config.retrieval().topK()));
        }
        return Uni.join().all(calls).andFailFast().map(done -> {
            Update u = Update.none();
            for (ToolRun.Done d : done) {
                u = u.add(TutorState.CONTEXT, d.passages());
            }
            return u;
        });
    }
}
