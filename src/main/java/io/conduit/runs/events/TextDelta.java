package io.conduit.runs.events;

/**
 * Where a streamed text fragment sits in a {@link RunEvent}'s JSON: {@code data.substring(start, end)} is the text,
 * JSON-escaped, without its quotes. Two events of one message ({@code key}) can then be merged into one without
 * parsing either: JSON escapes character by character, so the escaped concatenation is the concatenation of the
 * escaped parts. {@code key} names the message (and the content block) the text belongs to.
 */
public record TextDelta(String key, int start, int end) {

    public TextDelta {
        if (key == null || start < 0 || end < start) {
            throw new IllegalArgumentException("a text delta needs a key and 0 <= start <= end");
        }
    }
}
