package io.conduit.agent.message;

import io.conduit.graph.Removal;

/** Removes the message with this id from the conversation. */
public record RemoveMessage(String id) implements ChatMessage, Removal {

    @Override
    public String content() {
        return "";
    }
}
