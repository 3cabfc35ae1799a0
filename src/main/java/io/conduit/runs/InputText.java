package io.conduit.runs;

import io.conduit.agent.message.ChatMessage;
import io.conduit.checkpoint.StorableText;
import io.conduit.graph.Update;

/**
 * Rules for text that clients send and we store: no NUL (Postgres rejects it), no lone surrogates (they would be
 * stored as {@code ?}, so two different strings would become one), no control characters but tab and newlines.
 */
public final class InputText {

    private InputText() {
    }

    /** Throws {@link InvalidInputException} naming {@code field} when {@code text} breaks a rule. */
    public static void check(String field, String text, int maxChars) {
        if (text.length() > maxChars) {
            throw new InvalidInputException(field, "has " + text.length() + " characters, more than the limit of " + maxChars);
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new InvalidInputException(field, "contains a lone surrogate (invalid Unicode)");
            }
            if (Character.isLowSurrogate(c)) {
                throw new InvalidInputException(field, "contains a lone surrogate (invalid Unicode)");
            }
            if (Character.isISOControl(c) && c != '\n' && c != '\r' && c != '\t') {
                throw new InvalidInputException(field, c == 0 ? "contains a NUL character" : "contains control characters");
            }
        }
    }

    /**
     * The input rules of a graph that a client talks to with messages, checked before a run is created (the default
     * assistant and the blueprints share them, so a message is refused alike whatever the graph): each message's
     * content follows the rules above within {@code maxMessageChars} and its id is one ({@link #isId}); any other text
     * the client sets (a subject, a user id) follows them within {@code maxTextChars}. Throws
     * {@link InvalidInputException} naming the first field that breaks a rule.
     */
    public static void checkMessages(Update input, int maxMessageChars, int maxTextChars) {
        int i = 0;
        for (Update.Write w : input.writes()) {
            if (w.value() instanceof ChatMessage m) {
                check("input.messages[" + i + "].content", m.content(), maxMessageChars);
                if (!isId(m.id())) {
                    throw new InvalidInputException("input.messages[" + i + "].id", "ids are 1 to 128 letters, digits or - _ . : @");
                }
                i++;
            } else if (w.value() instanceof String s) {
                check("input." + w.channel().name(), s, maxTextChars);
            }
        }
    }

    /**
     * {@code text} when a store can keep it as it is ({@link StorableText}: no NUL, no lone surrogate); else an
     * {@link InvalidInputException} naming {@code field}. Null is kept (as null).
     */
    public static String storable(String field, String text) {
        String problem = text == null ? null : StorableText.problem(text);
        if (problem != null) {
            throw new InvalidInputException(field, problem);
        }
        return text;
    }

    /** Ids (threads, runs, assistants): 1 to 128 characters of letters, digits and {@code - _ . : @}. */
    public static boolean isId(String id) {
        if (id == null || id.isEmpty() || id.length() > 128) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':' || c == '@')) {
                return false;
            }
        }
        return true;
    }
}
