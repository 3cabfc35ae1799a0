package io.conduit.persistence;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The meters of one checkpoint store's writes, built once when the store is made: per kind of write, a timer
 * ({@code conduit_checkpoint_write_duration_seconds}) and, for a store that serializes, the size of what it sent
 * ({@code conduit_checkpoint_write_bytes}). A write then costs a clock read and two array loads, nothing resolved by name.
 */
public final class CheckpointWriteMeters {

    /** What a write stores: the label {@code kind}. */
    public enum Kind {
        /** A checkpoint, the head advanced with it ({@code Checkpointer.put}). */
        CHECKPOINT("checkpoint"),
        /** The pending writes of a step under way ({@code putWrites}). */
        PENDING_WRITES("pending_writes"),
        /** A full state kept to shorten reads ({@code putSnapshot}). */
        SNAPSHOT("snapshot");

        private final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** From an in-memory put (microseconds) to a Postgres write stuck behind a busy pool (seconds). */
    private static final Duration[] DURATION_BUCKETS = seconds(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5);
    /** From a step that wrote a counter to a long conversation's state. */
    private static final double[] SIZE_BUCKETS = {256, 1024, 4096, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 16_777_216};

    private final Timer[] durations = new Timer[Kind.values().length];
    /** Null for a store that keeps live objects: measuring them would mean serializing them, which it never does. */
    private final DistributionSummary[] sizes;

    /**
     * @param store the label {@code store}: {@code memory} or {@code postgres}
     * @param sized whether the store reports what it sends ({@link #sent}); only then is the size series made
     */
    public CheckpointWriteMeters(MeterRegistry registry, String store, boolean sized) {
        sizes = sized ? new DistributionSummary[Kind.values().length] : null;
        for (Kind k : Kind.values()) {
            durations[k.ordinal()] = Timer.builder("conduit.checkpoint.write.duration")
                    .description("How long checkpoint store writes took, call to answer (failed ones included)")
                    .tags("store", store, "kind", k.label).serviceLevelObjectives(DURATION_BUCKETS).register(registry);
            if (sized) {
                sizes[k.ordinal()] = DistributionSummary.builder("conduit.checkpoint.write.bytes").baseUnit("bytes")
                        .description("Size of the JSON text of checkpoint store writes that succeeded (characters: bytes for ASCII)")
                        .tags("store", store, "kind", k.label).serviceLevelObjectives(SIZE_BUCKETS).register(registry);
            }
        }
    }

    /** A write of {@code kind} that began at {@code startNanos} ({@link System#nanoTime}) has ended. */
    void ended(Kind kind, long startNanos) {
        durations[kind.ordinal()].record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }

    /** A write of {@code kind} stored {@code chars} characters of JSON text, counted from what was sent anyway. */
    void sent(Kind kind, int chars) {
        if (sizes != null) {
            sizes[kind.ordinal()].record(chars);
        }
    }

    private static Duration[] seconds(double... s) {
        Duration[] out = new Duration[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = Duration.ofNanos((long) (s[i] * 1e9));
        }
        return out;
    }
}
