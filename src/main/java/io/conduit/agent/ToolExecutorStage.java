package io.conduit.agent;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Runs one tool call (the planner sends one task per call, so a step's calls run in parallel and each result is
 * checkpointed as it completes: a crash re-runs only the calls that had not finished). The outcome, error or not,
 * becomes a tool message for the model. The call is announced as a child run of kind {@value #KIND} named after the
 * tool (LangChain's tool callbacks): started with its parsed arguments, ended with the message's content, and with
 * that content as the error too when the tool failed.
 */
public final class ToolExecutorStage implements Node {

    static final String KIND = "tool";

    private final ToolBox tools;

    public ToolExecutorStage(ToolBox tools) {
        this.tools = tools;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        ToolCall call = ctx.input(ToolCall.class);
        String userId = state.get(AgentState.USER_ID);
        ToolScope scope = new ToolScope(ctx.threadId(), userId, Map.of("user_id", userId, "thread_id", ctx.threadId()));
        return Uni.createFrom().deferred(() -> {
            String childId = TimeOrderedIds.next();
            ctx.childStarted(childId, KIND, call.name(), arguments(call), call.id());
            // an assistant limited to some tools binds only those; a model that calls another anyway is told no
            Uni<ToolOutcome> outcome = ctx.configurable().get("tools") instanceof java.util.List<?> allowed && !allowed.contains(call.name())
                    ? Uni.createFrom().item(new ToolOutcome("tool " + call.name() + " is not available to this assistant", true, 0))
                    : tools.call(call, scope);
            return outcome
                    .invoke(o -> ctx.childEnded(childId, KIND, call.name(), o.content(), o.error() ? o.content() : null))
                    // the port never fails, by contract; should it, the child run still ends
                    .onFailure().invoke(f -> ctx.childEnded(childId, KIND, call.name(), null, String.valueOf(f.getMessage())));
        }).map(o -> Update.of(AgentState.MESSAGES,
                        new ToolMessage(TimeOrderedIds.next(), call.id(), call.name(), o.content(), o.error()))
                .set(AgentState.PHASE, Phase.VERIFY));
    }

    /** The arguments as JSON values (LangChain's tool input is the parsed object); the text itself when it is not JSON. */
    private static Object arguments(ToolCall call) {
        try {
            return JsonCodec.MAPPER.readValue(call.arguments(), Object.class);
        } catch (JsonProcessingException | IllegalArgumentException notJson) {
            return call.arguments();
        }
    }
}
