package io.conduit.agent;

import io.conduit.graph.TimeOrderedIds;

/** What the user said. */
public record UserMessage(String id, String content) implements ChatMessage {

    public static UserMessage of(String content) {
        return new UserMessage(TimeOrderedIds.next(), content);
    }
}
