package io.conduit.agent.message;

/** The result of one tool call, as the model will read it; {@code error} when the tool failed. */
public record ToolMessage(String id, String toolCallId, String name, String content, boolean error) implements ChatMessage {

    public ToolMessage {
        content = content == null ? "" : content; // a result stored without content (an older version's) reads as empty
    }
}
