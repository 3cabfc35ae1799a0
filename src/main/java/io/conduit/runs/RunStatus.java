package io.conduit.runs;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** A run's life: pending → running → success | error | interrupted | timeout. */
public enum RunStatus {
    PENDING, RUNNING, SUCCESS, ERROR, INTERRUPTED, TIMEOUT;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean finished() {
        return this != PENDING && this != RUNNING;
    }

    public static RunStatus of(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }
}
