package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import java.util.List;

/**
 * What makes a message one the assistant can use, and a run's messages a turn: one set of rules, applied twice. A run's
 * submission checks its input with them before anything is written (each chat graph's input check, in serving), so a
 * message a door accepted is never refused later; ingress applies them again to the turn it reads, where a message
 * that breaks them was stored past the door (by an older version, by a caller of the graph itself) and is left out
 * instead of failing every later turn ({@link IngressStage}).
 */
public final class MessageRules {

    /**
     * What is wrong with a run's messages: the message at fault ({@code index} in the list checked; -1 for the list as a
     * whole), the part of it ({@code "content"}, or null for the message itself) and why, in a sentence.
     */
    public record Problem(int index, String part, String reason) {
    }

    private final int maxChars;
    private final int maxTurnMessages;

    /**
     * @param maxChars        the longest text of a user message or a tool result
     * @param maxTurnMessages the most user messages one run may bring
     */
    public MessageRules(int maxChars, int maxTurnMessages) {
        if (maxChars < 1 || maxTurnMessages < 1) {
            throw new IllegalArgumentException("limits must be positive");
        }
        this.maxChars = maxChars;
        this.maxTurnMessages = maxTurnMessages;
    }

    /** The default assistant's rules: {@code max-message-chars} and {@code max-input-messages}. */
    public static MessageRules of(AgentConfig config) {
        return new MessageRules(config.maxMessageChars(), config.maxInputMessages());
    }

    public int maxChars() {
        return maxChars;
    }

    /**
     * Why the agent cannot use this message, or null when it can. A user message needs text (blanks are none) or an
     * image, at most {@code maxChars} of text, and no control characters but tab and newlines; a tool result at most
     * {@code maxChars}. Other messages (the assistant's, system notes) are the conversation's own: nothing to check.
     */
    public String unusable(ChatMessage m) {
        String text = m.content() == null ? "" : m.content();
        if (m instanceof UserMessage u) {
            if (!u.readable()) {
                return "message " + u.id() + " is empty: a user message needs text or an image";
            }
            if (text.length() > maxChars) {
                return tooLong(m, text);
            }
            if (text.chars().anyMatch(ch -> Character.isISOControl(ch) && ch != '\n' && ch != '\r' && ch != '\t')) {
                return "message " + u.id() + " contains control characters";
            }
        } else if (m instanceof ToolMessage && text.length() > maxChars) {
            return "tool " + tooLong(m, text);
        }
        return null;
    }

    private String tooLong(ChatMessage m, String text) {
        return "message " + m.id() + " has " + text.length() + " characters, more than the limit of " + maxChars;
    }

    /**
     * The first problem of a run's messages as a turn, or null: a turn brings at least one message and ends with the
     * user's message (or with results of tool calls the client ran), at most {@code maxTurnMessages} user messages at
     * its end, and each message usable ({@link #unusable}).
     */
    public Problem turn(List<ChatMessage> messages) {
        if (messages.isEmpty()) {
            return new Problem(-1, null, "brings no user message: a turn starts with one");
        }
        int last = messages.size() - 1;
        ChatMessage end = messages.get(last);
        if (!(end instanceof UserMessage) && !(end instanceof ToolMessage)) {
            return new Problem(last, null, "a turn ends with the user's message (or the results of the client's tool calls), not "
                    + (end instanceof AssistantMessage ? "an assistant's message" : "a " + kind(end) + " message"));
        }
        int trailing = 0;
        for (int i = last; i >= 0 && messages.get(i) instanceof UserMessage; i--) {
            trailing++;
        }
        if (trailing > maxTurnMessages) {
            return new Problem(-1, null, "a turn may bring at most " + maxTurnMessages + " user messages, this one has " + trailing);
        }
        for (int i = 0; i < messages.size(); i++) {
            String why = unusable(messages.get(i));
            if (why != null) {
                return new Problem(i, "content", why);
            }
        }
        return null;
    }

    private static String kind(ChatMessage m) {
        return m.getClass().getSimpleName().replace("Message", "").toLowerCase(java.util.Locale.ROOT);
    }
}
