package io.conduit.agent;

import java.util.List;

/**
 * Splits a model's text written as {@code <thinking>…</thinking><answer>…</answer>} (a reasoning prompt for a model
 * without a reasoning channel of its own) into its reasoning and its answer while it streams. A tag cut across tokens
 * is held back until it is whole; text outside both tags counts as answer (a model that forgets the answer tag still
 * answers); {@code <think>} is read as {@code <thinking>}. Leading whitespace of each part is dropped. One instance
 * per model call; not thread-safe (a call's events come in order).
 */
public final class ThinkingTags {

    /** Where the split pieces go as they are found. */
    public interface Sink {
        void reasoning(String text);

        void answer(String text);
    }

    private enum Part { OUTSIDE, THINKING, ANSWER }

    private record Tag(String text, Part opens, boolean closes) {
    }

    private static final List<Tag> TAGS = List.of(
            new Tag("<thinking>", Part.THINKING, false), new Tag("</thinking>", Part.THINKING, true),
            new Tag("<think>", Part.THINKING, false), new Tag("</think>", Part.THINKING, true),
            new Tag("<answer>", Part.ANSWER, false), new Tag("</answer>", Part.ANSWER, true));

    private final StringBuilder pending = new StringBuilder();
    private final StringBuilder thinking = new StringBuilder();
    private final StringBuilder answer = new StringBuilder();
    private Part part = Part.OUTSIDE;

    /** Reads one more piece of the text; whole pieces of reasoning and answer go to {@code sink}. */
    public void feed(String token, Sink sink) {
        if (token == null || token.isEmpty()) {
            return;
        }
        pending.append(token);
        int i = 0;
        StringBuilder text = new StringBuilder();
        while (i < pending.length()) {
            char c = pending.charAt(i);
            if (c != '<') {
                text.append(c);
                i++;
                continue;
            }
            Tag whole = tagAt(i);
            if (whole != null) {
                emit(text, sink);
                part = whole.closes() ? Part.OUTSIDE : whole.opens();
                i += whole.text().length();
            } else if (couldBeTag(i)) {
                break; // the rest may be a tag cut across tokens: wait for more
            } else {
                text.append(c);
                i++;
            }
        }
        emit(text, sink);
        pending.delete(0, i);
    }

    /** The text is complete: what was held back is text after all. */
    public void finish(Sink sink) {
        StringBuilder rest = new StringBuilder(pending);
        pending.setLength(0);
        emit(rest, sink);
    }

    /** The reasoning found so far. */
    public String thinking() {
        return thinking.toString().strip();
    }

    /** The answer found so far. */
    public String answer() {
        return answer.toString().strip();
    }

    private void emit(StringBuilder text, Sink sink) {
        if (text.isEmpty()) {
            return;
        }
        StringBuilder target = part == Part.THINKING ? thinking : answer;
        String piece = target.isEmpty() ? text.toString().stripLeading() : text.toString();
        text.setLength(0);
        if (piece.isEmpty()) {
            return;
        }
        target.append(piece);
        if (part == Part.THINKING) {
            sink.reasoning(piece);
        } else {
            sink.answer(piece);
        }
    }

    private Tag tagAt(int i) {
        for (Tag t : TAGS) {
            if (pending.length() - i >= t.text().length() && pending.substring(i, i + t.text().length()).equalsIgnoreCase(t.text())) {
                return t;
            }
        }
        return null;
    }

    /** Whether what is left from {@code i} is the start of a tag, too short yet to tell. */
    private boolean couldBeTag(int i) {
        String rest = pending.substring(i);
        for (Tag t : TAGS) {
            if (rest.length() < t.text().length() && t.text().regionMatches(true, 0, rest, 0, rest.length())) {
                return true;
            }
        }
        return false;
    }
}
