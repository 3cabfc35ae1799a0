package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.SubgraphMapping;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import java.util.ArrayList;

/**
 * A handoff into a sub-agent's graph and back: the sub-agent starts from the task alone (a user message of its own
 * conversation) and the supervisor's user; its final answer comes back as the result of the supervisor's handoff
 * call, and its model calls join the supervisor's record. Nothing else of its conversation reaches the supervisor.
 */
final class HandoffMapping implements SubgraphMapping {

    private final String agent;

    HandoffMapping(String agent) {
        this.agent = agent;
    }

    @Override
    public Update input(State parent, NodeContext ctx) {
        Handoff h = Handoff.of(ctx.input(ToolCall.class));
        return Update.of(SubAgentState.TASK, h.task()).set(AgentState.USER_ID, parent.get(AgentState.USER_ID))
                .set(AgentState.MESSAGES, UserMessage.of(h.task()));
    }

    @Override
    public Update output(State parent, State result, NodeContext ctx) {
        ToolCall call = ctx.input(ToolCall.class);
        AssistantMessage last = AgentState.lastAssistant(result);
        String report = last == null || last.content().isBlank() ? "(the " + agent + " had nothing to report)" : last.content();
        return Update.of(AgentState.MESSAGES, new ToolMessage(TimeOrderedIds.next(), call.id(), Handoff.NAME, report, false))
                .add(AgentState.LLM_CALLS, new ArrayList<>(result.get(AgentState.LLM_CALLS).asList()))
                .set(AgentState.USAGE, result.get(AgentState.USAGE));
    }
}
