package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.HookedModelCall;
import io.conduit.agent.LlmCall;
import io.conduit.agent.Phase;
import io.conduit.agent.PreModelHook;
import io.conduit.agent.Usage;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolBox;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.Send;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One model call with the node's tools bound, through the pre-model hooks (the supervisor, and each sub-agent's
 * {@code agent} node). Its text streams; its message joins the conversation; tool calls make the phase
 * {@code execute}, for {@link #route}.
 */
final class ModelNode implements Node {

    private final String stage;
    private final LanguageModel model;
    private final ToolBox tools;
    private final PreModelHook hook;

    ModelNode(String stage, LanguageModel model, ToolBox tools, PreModelHook hook) {
        this.stage = stage;
        this.model = model;
        this.tools = tools;
        this.hook = hook;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, state.get(AgentState.MESSAGES).asList(), tools.specs());
        return HookedModelCall.run(model, hook, request, state, ctx, TimeOrderedIds.next(), stage, true).map(reply -> {
            LlmCall call = reply.record(ctx.runId(), stage);
            AssistantMessage m = reply.message();
            return Update.of(AgentState.MESSAGES, m).set(AgentState.LLM_CALLS, call).set(AgentState.USAGE, Usage.of(call))
                    .set(AgentState.PHASE, m.hasToolCalls() ? Phase.EXECUTE : Phase.ANSWERED);
        });
    }

    /** After the call: each tool call to the node {@code target} names for it (one task each, in parallel), or {@code done}. */
    static Route route(State state, String done, Function<ToolCall, String> target) {
        if (state.get(AgentState.PHASE) != Phase.EXECUTE) {
            return Route.to(done);
        }
        List<Send> sends = new ArrayList<>();
        for (ToolCall call : AgentState.lastAssistant(state).toolCalls()) {
            sends.add(new Send(target.apply(call), call));
        }
        return Route.send(sends);
    }
}
