package io.conduit.runs.submission;

import io.conduit.agent.message.UserMessage;
import io.conduit.graph.Update;
import java.util.Map;

/**
 * A thread's title ({@code metadata.title}, what the chat page lists threads by) from the first thing its user said:
 * a thread made through the API, not the page, would otherwise be listed untitled. Read from the run's decoded input,
 * so every shape a client may send a human message in (role or type, text or content parts) gives the same title.
 */
final class ThreadTitle {

    /** The thread metadata key the chat page reads and renames. */
    static final String KEY = "title";

    /** Longest title kept, ellipsis included: a list entry's length. */
    static final int MAX_CHARS = 60;

    private ThreadTitle() {
    }

    /** The title from the input's first human message with text, or null when it has none. */
    static String of(Update input) {
        if (input == null) {
            return null;
        }
        for (Update.Write w : input.writes()) {
            if (w.value() instanceof UserMessage m) {
                String title = shortened(m.content());
                if (title != null) {
                    return title;
                }
            }
        }
        return null;
    }

    /**
     * Whether the thread still needs one: a title set by a client (even an empty one) is never replaced; none or JSON
     * null is unset, as the store's compare-and-set reads it.
     */
    static boolean missing(Map<String, Object> metadata) {
        return metadata == null || metadata.get(KEY) == null;
    }

    /** The text on one line, cut at a word when it is too long. */
    static String shortened(String text) {
        String line = text == null ? "" : text.replaceAll("\\s+", " ").strip();
        if (line.isEmpty()) {
            return null;
        }
        if (line.codePointCount(0, line.length()) <= MAX_CHARS) {
            return line;
        }
        String cut = line.substring(0, line.offsetByCodePoints(0, MAX_CHARS - 1));
        int space = cut.lastIndexOf(' ');
        if (space >= MAX_CHARS / 2) {
            cut = cut.substring(0, space);
        }
        return cut.stripTrailing() + "…";
    }
}
