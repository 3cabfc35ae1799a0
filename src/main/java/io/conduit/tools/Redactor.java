package io.conduit.tools;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Replaces secrets and configured patterns in tool output with {@code [REDACTED]} before the model sees it. */
public final class Redactor {

    static final String MASK = "[REDACTED]";

    private final List<Pattern> patterns;

    public Redactor(Collection<String> regexes, Collection<String> secrets) {
        List<Pattern> p = new ArrayList<>();
        regexes.forEach(r -> p.add(Pattern.compile(r)));
        // longest first, so a secret that contains another is masked whole
        secrets.stream().filter(s -> s != null && s.length() >= 4).sorted((a, b) -> b.length() - a.length())
                .forEach(s -> p.add(Pattern.compile(Pattern.quote(s))));
        this.patterns = List.copyOf(p);
    }

    public String apply(String text) {
        if (text == null) {
            return "";
        }
        String out = text;
        for (Pattern p : patterns) {
            out = p.matcher(out).replaceAll(Matcher.quoteReplacement(MASK));
        }
        return out;
    }
}
