package io.conduit.checkpoint;

import java.util.Arrays;

/**
 * What wrote a checkpoint (LangGraph's checkpoint metadata {@code source}). Stores and clients see only the wire
 * name, which is the text every existing row already holds.
 */
public enum CheckpointSource {
    /** A run's input, on a new thread or after the thread's head. */
    INPUT("input"),
    /** A superstep of the run loop. */
    LOOP("loop"),
    /** A client's state update ({@code update_state}). */
    UPDATE("update"),
    /** An input from an older checkpoint, or a thread copied from another. */
    FORK("fork");

    private final String wire;

    CheckpointSource(String wire) {
        this.wire = wire;
    }

    /** The name stored and sent: {@code input}, {@code loop}, {@code update} or {@code fork}. */
    public String wire() {
        return wire;
    }

    /** The source a stored name stands for; an unknown name is refused rather than read as some other source. */
    public static CheckpointSource of(String wire) {
        for (CheckpointSource s : values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown checkpoint source: " + wire + " (known: "
                + Arrays.stream(values()).map(CheckpointSource::wire).toList() + ")");
    }
}
