package io.conduit.llm.simulator;

import java.util.List;

/** What the simulator answers: text, or tool calls (name and arguments JSON), and optional reasoning. */
record SimulatedReply(String text, List<Call> toolCalls, String reasoning) {

    record Call(String name, String arguments) {
    }

    boolean callsTools() {
        return !toolCalls.isEmpty();
    }
}
