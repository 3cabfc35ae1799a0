package io.conduit.agent.port;

import io.smallrye.mutiny.Multi;

/**
 * The agent's port to an LLM (implemented in {@code io.conduit.llm}). The stream ends with one
 * {@link ModelEvent.Completed}; a failure fails the stream with a {@link ModelException}. Implementations retry
 * only where it is safe: before the first token.
 */
public interface LanguageModel {
    Multi<ModelEvent> stream(ModelRequest request);
}
