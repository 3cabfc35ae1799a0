package io.conduit.blueprints.tutor;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Which choice an answer names: a letter ("B", "b)", "(B)"), a number from 1, or the choice's text. */
final class Choices {

    /** "B", "b.", "(B)", or "B) the choice's text". */
    private static final Pattern LETTER = Pattern.compile("^\\(?([A-Za-z])(?:\\)|[.:])?(?:\\s.*)?$");
    private static final Pattern NUMBER = Pattern.compile("^(\\d{1,2})[).:]?$");

    private Choices() {
    }

    /** The index of the choice named, or -1. */
    static int resolve(String answer, List<String> choices) {
        if (answer == null || choices == null) {
            return -1;
        }
        String a = answer.strip();
        for (int i = 0; i < choices.size(); i++) {
            if (choices.get(i) != null && choices.get(i).strip().equalsIgnoreCase(a)) {
                return i;
            }
        }
        Matcher n = NUMBER.matcher(a);
        if (n.matches()) {
            int i = Integer.parseInt(n.group(1)) - 1;
            return i >= 0 && i < choices.size() ? i : -1;
        }
        Matcher l = LETTER.matcher(a);
        // a bare letter, or a letter marked as one ("B) ..."), not the first word of a sentence ("I think ...")
        if (l.matches() && (a.length() <= 3 || ").:".indexOf(a.charAt(a.charAt(0) == '(' ? 2 : 1)) >= 0)) {
            int i = l.group(1).toUpperCase(Locale.ROOT).charAt(0) - 'A';
            return i < choices.size() ? i : -1;
        }
        return -1;
    }
}
