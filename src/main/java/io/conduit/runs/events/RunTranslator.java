package io.conduit.runs.events;

/**
 * One wire format's translation of one run: fed the run's log entries in order (engine events and {@link RunNotice}s,
 * each with the time it was logged), it writes that format's frames to the sink it was made with. Deterministic: fed
 * the same entries, it writes the same frames, so a replay translates the run again instead of keeping its frames.
 */
public interface RunTranslator {

    /** Translates one entry, logged at {@code atMillis}. */
    void on(Object entry, long atMillis);
}
