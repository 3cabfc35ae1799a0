package io.conduit.runs.worker;

import java.time.Duration;

/** How long the worker waits before it tries again a write the store refused (a run's begin, a run's end). */
final class StoreBackoff {

    /** The longest wait between two attempts to record a run's end while the store refuses writes. */
    private static final Duration MAX_RECORD_BACKOFF = Duration.ofSeconds(5);

    private StoreBackoff() {
    }

    static Duration after(int failures) {
        long millis = 100L << Math.min(failures, 10);
        return Duration.ofMillis(Math.min(millis, MAX_RECORD_BACKOFF.toMillis()));
    }
}
