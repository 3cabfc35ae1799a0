package io.conduit.blueprints.tutor;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** How hard a question is, which picks the tutor's system prompt. */
public enum Difficulty {
    BASIC, INTERMEDIATE, ADVANCED;

    private static final Pattern ADVANCED_WORDS = Pattern.compile(
            "\\b(prove|proof|derive|derivation|compare|contrast|analy[sz]e|evaluate|critique|trade-?offs?|implications?|in depth|why (does|do|is|are))\\b");
    private static final Pattern BASIC_START = Pattern.compile(
            "^(what (is|are)|who (is|was|were)|when (did|was|were|is)|where (is|are)|define|definition of|name)\\b");
    private static final Pattern INTERMEDIATE_START = Pattern.compile("^(how (does|do|can|is|are)|explain|describe|summari[sz]e)\\b");

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Difficulty> of(String text) {
        if (text == null) {
            return Optional.empty();
        }
        for (Difficulty d : values()) {
            if (d.wire().equals(text.strip().toLowerCase(Locale.ROOT))) {
                return Optional.of(d);
            }
        }
        return Optional.empty();
    }

    /**
     * The rules: words that ask for analysis make a question advanced; a short definition question is basic; a
     * "how"/"explain" question is intermediate. Empty when they cannot tell (the model then rates it).
     */
    public static Optional<Difficulty> byRules(String question) {
        String q = question == null ? "" : question.strip().toLowerCase(Locale.ROOT);
        if (q.isEmpty()) {
            return Optional.empty();
        }
        if (ADVANCED_WORDS.matcher(q).find()) {
            return Optional.of(ADVANCED);
        }
        int words = q.split("\\s+").length;
        if (BASIC_START.matcher(q).find() && words <= 12) {
            return Optional.of(BASIC);
        }
        if (INTERMEDIATE_START.matcher(q).find()) {
            return Optional.of(INTERMEDIATE);
        }
        return Optional.empty();
    }
}
