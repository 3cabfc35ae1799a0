package io.conduit.llm.simulator;

import java.util.List;

/**
 * What the simulator answers: text, or tool calls (name and arguments as JSON text), with optional reasoning that
 * streams first.
 */
record SimulatedReply(String text, List<Call> toolCalls, String reasoning) {

    record Call(String name, String arguments) {
    }

    SimulatedReply {
        toolCalls = List.copyOf(toolCalls);
    }

    static SimulatedReply text(String text) {
        return new SimulatedReply(text, List.of(), null);
    }

    static SimulatedReply calls(List<Call> calls) {
        return new SimulatedReply("", calls, null);
    }

    SimulatedReply withReasoning(String reasoning) {
        return new SimulatedReply(text, toolCalls, reasoning);
    }

    boolean callsTools() {
        return !toolCalls.isEmpty();
    }

    /** OpenAI's {@code finish_reason}: {@code tool_calls} when the reply calls tools, else {@code stop}. */
    String finishReason() {
        return callsTools() ? "tool_calls" : "stop";
    }

    /** Tokens the answer costs: its words, its reasoning's words, and per tool call one for the name plus the words of its arguments. */
    int completionTokens() {
        int n = TokenCount.of(text) + TokenCount.of(reasoning);
        for (Call c : toolCalls) {
            n += 1 + TokenCount.of(c.arguments());
        }
        return n;
    }
}
