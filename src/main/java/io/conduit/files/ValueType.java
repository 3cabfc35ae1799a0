package io.conduit.files;

/** The type a CSV column's values share, from the narrowest: integer, number, boolean, string. Empty cells fit any. */
public enum ValueType {
    INTEGER, NUMBER, BOOLEAN, STRING;

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The type of {@code value} joined with what the column had so far (null: nothing yet). */
    static ValueType widen(ValueType so, String value) {
        String v = value.strip();
        if (v.isEmpty()) {
            return so;
        }
        ValueType own = of(v);
        if (so == null || so == own) {
            return own;
        }
        if ((so == INTEGER && own == NUMBER) || (so == NUMBER && own == INTEGER)) {
            return NUMBER;
        }
        return STRING;
    }

    private static ValueType of(String v) {
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return BOOLEAN;
        }
        if (Numbers.parse(v) == null) {
            return STRING;
        }
        return Numbers.isInteger(v) ? INTEGER : NUMBER;
    }
}
