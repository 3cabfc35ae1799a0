package io.conduit.agent;

import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.checkpoint.TimeOrderedIds;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Runs one tool call (the planner sends one task per call, so a step's calls run in parallel and each result is
 * checkpointed as it completes: a crash re-runs only the calls that had not finished). The outcome, error or not,
 * becomes a tool message for the model.
 */
public final class ToolExecutorStage implements Node {

    private final ToolBox tools;

    public ToolExecutorStage(ToolBox tools) {
        this.tools = tools;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        ToolCall call = ctx.input(ToolCall.class);
        String userId = state.get(AgentState.USER_ID);
        ToolScope scope = new ToolScope(ctx.threadId(), userId, Map.of("user_id", userId, "thread_id", ctx.threadId()));
        return tools.call(call, scope).map(o -> Update.of(AgentState.MESSAGES,
                        new ToolMessage(TimeOrderedIds.next(), call.id(), call.name(), o.content(), o.error()))
                .set(AgentState.PHASE, Phase.VERIFY));
    }
}
