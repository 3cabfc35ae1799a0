package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateSchema;

/**
 * A sub-agent's own state: the task the supervisor handed it, its own conversation (which starts with the task and
 * never reaches the supervisor's), the user it works for, and its model calls.
 */
final class SubAgentState {

    static final LastValueChannel<String> TASK = Channels.lastValue("task", String.class, "");

    static final StateSchema SCHEMA = StateSchema.of(TASK, AgentState.MESSAGES, AgentState.USER_ID, AgentState.PHASE,
            AgentState.LLM_CALLS, AgentState.USAGE);

    private SubAgentState() {
    }
}
