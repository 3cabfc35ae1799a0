package io.conduit.runs;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a thread is doing: idle, busy (a run is pending or running), interrupted (waiting for an answer), error. */
public enum ThreadStatus {
    IDLE, BUSY, INTERRUPTED, ERROR;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ThreadStatus of(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }
}
