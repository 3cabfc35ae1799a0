package io.conduit.agent.message;

import io.conduit.checkpoint.TimeOrderedIds;

/** What the user said. */
public record UserMessage(String id, String content) implements ChatMessage {

    public static UserMessage of(String content) {
        return new UserMessage(TimeOrderedIds.next(), content);
    }
}
