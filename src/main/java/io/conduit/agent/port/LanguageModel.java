package io.conduit.agent.port;

import io.smallrye.mutiny.Multi;

/**
 * The agent's port to an LLM (implemented in {@code io.conduit.llm}). The stream ends with one
 * {@link ModelEvent.Completed}; a failure fails the stream with a {@link ModelException}. Implementations retry
 * only where it is safe: before the first token.
 */
public interface LanguageModel {
    Multi<ModelEvent> stream(ModelRequest request);

    /**
     * True for the simulated model, whose answers come from a script rather than a model: a graph may then stand in
     * demo parts for what it would otherwise need configured (the tutor's built-in course guide for a retrieval
     * service).
     */
    default boolean scripted() {
        return false;
    }
}
