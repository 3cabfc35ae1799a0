package io.conduit.agent.message;

/**
 * The tokens one model call read and wrote, kept on the AI message it produced (LangChain's {@code usage_metadata}),
 * so a client learns a turn's size from the message itself, streamed ({@code message-finish.usage}) or in state.
 */
public record TokenUsage(int inputTokens, int outputTokens) {

    public int totalTokens() {
        return inputTokens + outputTokens;
    }
}
