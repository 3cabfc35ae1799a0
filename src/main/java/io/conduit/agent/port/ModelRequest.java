package io.conduit.agent.port;

import io.conduit.agent.message.ChatMessage;
import java.util.List;

/** One model call: the conversation as the model should see it, and the tools it may call (none: no tools bound). */
public record ModelRequest(ModelRole role, List<ChatMessage> messages, List<ToolSpec> tools, String model) {

    /** A request for the model configured for {@code role}. */
    public ModelRequest(ModelRole role, List<ChatMessage> messages, List<ToolSpec> tools) {
        this(role, messages, tools, null);
    }

    /** The same request for another model (an assistant's override); null keeps the role's configured model. */
    public ModelRequest withModel(String name) {
        return new ModelRequest(role, messages, tools, name);
    }
}
