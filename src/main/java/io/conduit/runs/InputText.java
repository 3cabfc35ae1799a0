package io.conduit.runs;

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
