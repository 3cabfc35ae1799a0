package io.conduit.agent.port;

import io.conduit.agent.message.ChatMessage;
import java.util.List;

/** One model call: the conversation as the model should see it, and the tools it may call (none: no tools bound). */
public record ModelRequest(ModelRole role, List<ChatMessage> messages, List<ToolSpec> tools) {
}
