package io.conduit.files;

/** Numbers in CSV cells: plain decimal notation (optionally signed, with a fraction or an exponent), nothing else. */
public final class Numbers {

    private Numbers() {
    }

    /** The number in the cell, or null when it holds none (empty, text, NaN, Infinity, a hex literal). */
    public static Double parse(String cell) {
        String v = cell.strip();
        if (v.isEmpty() || !looksNumeric(v)) {
            return null;
        }
        try {
            double d = Double.parseDouble(v);
            return Double.isFinite(d) ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static boolean isInteger(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(Character.isDigit(c) || (i == 0 && (c == '-' || c == '+')))) {
                return false;
            }
        }
        return true;
    }

    private static boolean looksNumeric(String v) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (!(c >= '0' && c <= '9') && c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                return false;
            }
        }
        return true;
    }
}
