package io.conduit.agent.message;

import io.conduit.kernel.TimeOrderedIds;

/** An instruction for the model that is part of the conversation record (a verifier's note, for example). */
public record SystemMessage(String id, String content) implements ChatMessage {

    public SystemMessage {
        content = content == null ? "" : content;
    }

    public static SystemMessage of(String content) {
        return new SystemMessage(TimeOrderedIds.next(), content);
    }
}
