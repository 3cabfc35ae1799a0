package io.conduit.runs;

import java.time.Duration;

/** A request refused because this replica is at one of its limits ({@link LimitsConfig}): HTTP 429 with {@code Retry-After}. */
public final class LimitExceededException extends RuntimeException {

    private final String code;
    private final Duration retryAfter;

    public LimitExceededException(String code, String message, Duration retryAfter) {
        super(message);
        this.code = code;
        this.retryAfter = retryAfter;
    }

    public String code() {
        return code;
    }

    /** Whole seconds, at least 1, as {@code Retry-After} wants them. */
    public long retryAfterSeconds() {
        return retryAfterSeconds(retryAfter);
    }

    /** A wait as {@code Retry-After} wants it: whole seconds, rounded up, at least 1. */
    public static long retryAfterSeconds(Duration wait) {
        return Math.max(1, (wait.toMillis() + 999) / 1000);
    }
}
