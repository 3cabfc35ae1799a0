package io.conduit.bench.stream;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts of latencies in microseconds: 1 µs buckets up to 100 ms, then 1 ms buckets up to 100 s. Lock-free, so the
 * client's event loops record without contention beyond a cache line.
 */
final class LatencyHistogram {
    private static final int FINE = 100_000;
    private static final int COARSE = 100_000;
    private final AtomicLongArray counts = new AtomicLongArray(FINE + COARSE + 1);
    private final LongAdder total = new LongAdder();
    private final LongAdder negative = new LongAdder();

    void record(long micros) {
        if (micros < 0) {
            negative.increment();
            micros = 0;
        }
        int bucket = micros < FINE ? (int) micros : (int) Math.min(FINE + (micros - FINE) / 1000, FINE + COARSE);
        counts.incrementAndGet(bucket);
        total.increment();
    }

    long count() {
        return total.sum();
    }

    long negatives() {
        return negative.sum();
    }

    /** The smallest latency in µs at or below which the given fraction of samples lie; -1 with no samples. */
    long percentile(double fraction) {
        long n = total.sum();
        if (n == 0) {
            return -1;
        }
        long rank = (long) Math.ceil(fraction * n);
        long seen = 0;
        for (int i = 0; i < counts.length(); i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return i < FINE ? i : FINE + (long) (i - FINE) * 1000;
            }
        }
        return Long.MAX_VALUE;
    }
}
