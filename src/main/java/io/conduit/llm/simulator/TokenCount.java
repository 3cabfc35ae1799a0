package io.conduit.llm.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's notion of a token: a word (a run of non-space characters) with the whitespace that follows it. It
 * is deterministic and needs no tokenizer, and it makes usage agree with the stream: an answer of n words arrives as
 * n content deltas and counts n completion tokens.
 */
final class TokenCount {

    private TokenCount() {
    }

    /** The text cut into tokens; concatenated they give the text back exactly (leading whitespace joins the first). */
    static List<String> split(String text) {
        List<String> tokens = new ArrayList<>();
        int start = 0;
        for (int end = next(text, 0); end > 0; end = next(text, end)) {
            tokens.add(text.substring(start, end));
            start = end;
        }
        if (start < text.length()) {
            tokens.add(text.substring(start)); // whitespace only
        }
        return tokens;
    }

    /** How many words the text has. */
    static int of(String text) {
        String t = text == null ? "" : text;
        int n = 0;
        for (int end = next(t, 0); end > 0; end = next(t, end)) {
            n++;
        }
        return n;
    }

    /**
     * Where the token after {@code from} ends (its word and the whitespace after it), or -1 when only whitespace is
     * left. A scan, not a regex: the simulator cuts every answer of every run, and the streaming benchmark counts it.
     */
    private static int next(String text, int from) {
        int i = from;
        int n = text.length();
        while (i < n && space(text.charAt(i))) {
            i++;
        }
        if (i == n) {
            return -1;
        }
        while (i < n && !space(text.charAt(i))) {
            i++;
        }
        while (i < n && space(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** The whitespace of a regex's {@code \s}: what a word stops at. */
    private static boolean space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }
}
