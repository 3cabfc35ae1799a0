package io.conduit.agent.port;

/** What a streaming model call produces: text and reasoning as they arrive, then exactly one {@link Completed}. */
public sealed interface ModelEvent {

    record Token(String text) implements ModelEvent {
    }

    record Reasoning(String text) implements ModelEvent {
    }

    record Completed(ModelResponse response) implements ModelEvent {
    }
}
