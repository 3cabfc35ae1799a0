package io.conduit.blueprints.analyst;

import io.conduit.agent.AgentState;
import io.conduit.graph.Channels;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.MessagesChannel;
import io.conduit.graph.StateSchema;

/**
 * The analyst's state: the conversation ({@code messages}, the same channel as the default assistant's, so clients
 * send and read messages alike), the user, the agent's {@code phase} (the default assistant's channel, which the reused
 * tool stage writes), the thread's CSV files ({@code files}), the tool rounds of the current turn ({@code iterations})
 * and the record of answered turns ({@code turns}).
 */
public final class AnalystState {

    public static final LastValueChannel<DataFiles> FILES = Channels.lastValue("files", DataFiles.class, DataFiles.NONE);
    public static final LastValueChannel<Integer> ITERATIONS = Channels.lastValue("iterations", Integer.class, 0);
    public static final MessagesChannel<Turn> TURNS = Channels.messages("turns", Turn.class);

    public static final StateSchema SCHEMA = StateSchema.of(AgentState.MESSAGES, AgentState.USER_ID, AgentState.PHASE, FILES, ITERATIONS, TURNS);

    private AnalystState() {
    }
}
