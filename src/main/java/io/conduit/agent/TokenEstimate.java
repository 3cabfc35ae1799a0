package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import java.util.List;

/**
 * A rough token count (four characters a token, the usual rule of thumb for English), used only to decide when to
 * summarize; exact counts come back from the model as usage.
 */
final class TokenEstimate {

    private TokenEstimate() {
    }

    static int of(String text) {
        return text == null ? 0 : (text.length() + 3) / 4;
    }

    static int of(List<ChatMessage> messages) {
        int n = 0;
        for (ChatMessage m : messages) {
            n += 4 + of(m.content());
            if (m instanceof AssistantMessage a) {
                for (ToolCall c : a.toolCalls()) {
                    n += of(c.name()) + of(c.arguments());
                }
            }
        }
        return n;
    }
}
