package io.conduit.llm.simulator;

import java.time.Instant;

/**
 * A text token replaced by the time it is emitted, {@code "<epoch microseconds> "} ({@code conduit.simulator.stamp-tokens}),
 * so that a load client in another process on the same machine can measure the latency the service adds to each
 * token. One word followed by a space: it is one simulator token, so usage and the joined answer stay consistent.
 */
final class TokenStamp {

    private TokenStamp() {
    }

    /** Now, to the microsecond where the clock has it (Linux does). */
    static String now() {
        Instant t = Instant.now();
        return (t.getEpochSecond() * 1_000_000L + t.getNano() / 1_000) + " ";
    }
}
