package io.conduit.agent.message;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.conduit.graph.Identified;

/**
 * A message of a conversation, as the agent's state keeps it. The {@code type} names follow LangChain's
 * ({@code human}, {@code ai}, {@code tool}, {@code system}, {@code remove}), which is what LangGraph clients expect.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = UserMessage.class, name = "human"),
        @JsonSubTypes.Type(value = AssistantMessage.class, name = "ai"),
        @JsonSubTypes.Type(value = ToolMessage.class, name = "tool"),
        @JsonSubTypes.Type(value = SystemMessage.class, name = "system"),
        @JsonSubTypes.Type(value = RemoveMessage.class, name = "remove")
})
public sealed interface ChatMessage extends Identified permits UserMessage, AssistantMessage, ToolMessage, SystemMessage, RemoveMessage {

    /** The text of the message ("" when it has none). */
    String content();

    /**
     * Whether a model can be sent this message at all: not a user message without text or image, nor an assistant's
     * without text or tool calls (a provider refuses the one, and neither tells a model anything). The doors refuse
     * such user messages; a thread may still hold one stored before they did, and models are sent the rest.
     */
    default boolean readable() {
        return true;
    }
}
