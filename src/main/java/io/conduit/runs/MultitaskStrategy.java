package io.conduit.runs;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a new run does on a thread that already has a pending or running run: {@code reject} it, {@code enqueue}
 * behind it (the default), {@code interrupt} the running one (its progress kept) or {@code rollback} it (its
 * checkpoints and record deleted).
 */
public enum MultitaskStrategy {
    REJECT, ENQUEUE, INTERRUPT, ROLLBACK;

    @JsonValue
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MultitaskStrategy of(String wire) {
        return valueOf(wire.toUpperCase(Locale.ROOT));
    }
}
