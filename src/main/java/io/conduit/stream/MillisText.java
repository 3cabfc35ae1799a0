package io.conduit.stream;

/**
 * An epoch-millisecond time as JSON text, formatted once per millisecond for every run's translation: each run
 * remembers only its own last one, and with thousands of streams a run's next token is nearly always in another
 * millisecond than its last, while the runs together log dozens of entries in each.
 */
final class MillisText {

    private record Formatted(long millis, String text) {
    }

    /** The last time formatted, by any translation on any thread (a stale one is only formatted again). */
    private static volatile Formatted last = new Formatted(-1, "-1");

    private MillisText() {
    }

    static String of(long millis) {
        Formatted f = last;
        if (f.millis != millis) {
            f = new Formatted(millis, Long.toString(millis));
            last = f;
        }
        return f.text;
    }
}
