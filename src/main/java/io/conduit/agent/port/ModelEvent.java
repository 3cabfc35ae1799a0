package io.conduit.agent.port;

/**
 * What a streaming model call produces: text, reasoning and tool-call pieces as they arrive, then exactly one
 * {@link Completed}.
 */
public sealed interface ModelEvent {

    record Token(String text) implements ModelEvent {
    }

    record Reasoning(String text) implements ModelEvent {
    }

    /**
     * A piece of a tool call as the provider streams it. {@code index} tells the calls of one response apart (the
     * n-th call of {@link ModelResponse#toolCalls()} has index n). The first delta of a call carries its {@code id}
     * (the one the response will have) and {@code name}; later ones carry null there. The
     * {@code argumentsDelta}s of a call, in order, concatenate to its final arguments.
     */
    record ToolCallDelta(int index, String id, String name, String argumentsDelta) implements ModelEvent {
    }

    record Completed(ModelResponse response) implements ModelEvent {
    }
}
