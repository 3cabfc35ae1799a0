package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.Suggestions;
import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateSchema;

/**
 * The supervisor's state: the conversation, the run's user (from {@code config.configurable.user_id}), the follow-up
 * suggestions of the last turn, and the model calls with their usage (the sub-agents' included). The channels shared
 * with the default assistant are its own objects, so its stages and tools work here unchanged.
 */
final class AssistantState {

    static final LastValueChannel<Suggestions> SUGGESTIONS = Channels.lastValue("suggestions", Suggestions.class, Suggestions.NONE);

    static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, AgentState.USER_ID, AgentState.PHASE, SUGGESTIONS,
            AgentState.LLM_CALLS, AgentState.USAGE);

    private AssistantState() {
    }
}
