package io.conduit.llm.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulator's notion of a token: a word (a run of non-space characters) with the whitespace that follows it. It
 * is deterministic and needs no tokenizer, and it makes usage agree with the stream: an answer of n words arrives as
 * n content deltas and counts n completion tokens.
 */
final class TokenCount {

    private static final Pattern TOKEN = Pattern.compile("\\S+\\s*");

    private TokenCount() {
    }

    /** The text cut into tokens; concatenated they give the text back exactly (leading whitespace joins the first). */
    static List<String> split(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        int start = 0;
        while (m.find()) {
            tokens.add(text.substring(start, m.end()));
            start = m.end();
        }
        if (start < text.length()) {
            tokens.add(text.substring(start)); // whitespace only
        }
        return tokens;
    }

    /** How many words the text has. */
    static int of(String text) {
        int n = 0;
        Matcher m = TOKEN.matcher(text == null ? "" : text);
        while (m.find()) {
            n++;
        }
        return n;
    }
}
