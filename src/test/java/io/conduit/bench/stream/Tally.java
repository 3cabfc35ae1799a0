package io.conduit.bench.stream;

import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the load client received: token events, the tokens in them (one per emit-time stamp, so coalesced deltas
 * count every token), finished conversations, errors, and the latency of each stamped token from the simulator's
 * emit time to the moment the client's event loop got the frame.
 */
final class Tally {
    final LongAdder events = new LongAdder();
    final LongAdder tokens = new LongAdder();
    final LongAdder conversations = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LatencyHistogram fast = new LatencyHistogram();
    final LatencyHistogram slow = new LatencyHistogram();
    /** From sending run.start to the first token (thread-protocol transports): fast clients, slow clients. */
    final LatencyHistogram first = new LatencyHistogram();
    final LatencyHistogram slowFirst = new LatencyHistogram();
    private final LongAdder printedErrors = new LongAdder();

    static long nowMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    }

    /** One token event: records a latency for each 16-digit epoch-microsecond stamp in it. */
    void tokenEvent(String text, long receivedMicros, boolean slowClient) {
        events.increment();
        int stamps = 0;
        int run = 0;
        for (int i = 0, n = text.length(); i <= n; i++) {
            char c = i < n ? text.charAt(i) : ' ';
            if (c >= '0' && c <= '9') {
                run++;
                continue;
            }
            if (run == 16) {
                long stamp = Long.parseLong(text, i - 16, i, 10);
                (slowClient ? slow : fast).record(receivedMicros - stamp);
                stamps++;
            }
            run = 0;
        }
        tokens.add(stamps == 0 ? 1 : stamps);
    }

    void error(String what) {
        errors.increment();
        if (printedErrors.sum() < 5) {
            printedErrors.increment();
            System.err.println("error: " + (what.length() > 300 ? what.substring(0, 300) + "…" : what));
        }
    }
}
