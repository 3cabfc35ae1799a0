package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the tool calls of the tutor's last message at once: each result becomes a tool message, and rag_search's
 * passages accumulate in {@code context}. The subject is the thread's, injected: the model cannot search another
 * course.
 */
final class ToolsNode implements Node {

    private final TutorTools tools;
    private final TutorConfig config;

    ToolsNode(TutorTools tools, TutorConfig config) {
        this.tools = tools;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        AssistantMessage last = AgentState.lastAssistant(state);
        ToolScope scope = scope(state, ctx);
        List<Uni<ToolRun.Done>> calls = new ArrayList<>();
        for (ToolCall call : last.toolCalls()) {
            calls.add(ToolRun.call(tools.box(), call, scope, ctx, config.retrieval().topK()));
        }
        return Uni.join().all(calls).andFailFast().map(done -> {
            Update u = Update.none();
            for (ToolRun.Done d : done) {
                u = u.set(AgentState.MESSAGES, d.message()).add(TutorState.CONTEXT, d.passages());
            }
            return u;
        });
    }

    static ToolScope scope(State state, NodeContext ctx) {
        String user = state.get(AgentState.USER_ID);
        return new ToolScope(ctx.threadId(), user, Map.of("subject", state.get(TutorState.SUBJECT), "user_id", user));
    }
}
