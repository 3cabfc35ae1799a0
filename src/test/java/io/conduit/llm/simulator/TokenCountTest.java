package io.conduit.llm.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TokenCountTest {

    /** The definition the scan implements: a word and the whitespace after it. */
    private static final Pattern TOKEN = Pattern.compile("\\S+\\s*");

    private static final List<String> TEXTS = List.of("", " ", "one", "one two", "  leading", "trailing  ", "a\tb\nc\u000Bd\fe\rf",
            "no-break\u00A0space stays in its word", "wörds ✓ and   runs\n\nof space", "\n\n", "x");

    @Test
    void cutsTextIntoWordsWithTheWhitespaceAfterThem() {
        assertThat(TokenCount.split("  Hello, world!  Bye\n")).containsExactly("  Hello, ", "world!  ", "Bye\n");
        assertThat(TokenCount.split("   ")).containsExactly("   ");
        assertThat(TokenCount.split("")).isEmpty();
        assertThat(TokenCount.of(null)).isZero();
    }

    @Test
    void agreesWithTheRegexOnEveryText() {
        for (String text : TEXTS) {
            List<String> tokens = TokenCount.split(text);
            assertThat(tokens).as(text).isEqualTo(byRegex(text));
            assertThat(String.join("", tokens)).isEqualTo(text);
            Matcher m = TOKEN.matcher(text);
            int words = 0;
            while (m.find()) {
                words++;
            }
            assertThat(TokenCount.of(text)).as(text).isEqualTo(words);
        }
    }

    private static List<String> byRegex(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        int start = 0;
        while (m.find()) {
            tokens.add(text.substring(start, m.end()));
            start = m.end();
        }
        if (start < text.length()) {
            tokens.add(text.substring(start));
        }
        return tokens;
    }
}
