package io.conduit.persistence;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.ForwardingCheckpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.persistence.CheckpointWriteMeters.Kind;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.Map;

/**
 * The service's {@link Checkpointer} with its writes timed ({@link CheckpointWriteMeters}): from the call, which for
 * Postgres includes encoding the row, to the answer, retries included, as the run waits for it. Reads and deletes pass
 * through untouched ({@link ForwardingCheckpointer}). Here rather than in the engine, which knows no metrics.
 */
final class MeteredCheckpointer extends ForwardingCheckpointer {

    private final CheckpointWriteMeters meters;

    MeteredCheckpointer(Checkpointer delegate, CheckpointWriteMeters meters) {
        super(delegate);
        this.meters = meters;
    }

    /** The Postgres store, its writes timed and sized (the size of the JSON text it sends anyway). */
    static Checkpointer postgres(SqlClient client, MeterRegistry registry) {
        CheckpointWriteMeters meters = new CheckpointWriteMeters(registry, "postgres", true);
        return new MeteredCheckpointer(new PostgresCheckpointer(client, ConnectionRetry.defaults(), meters), meters);
    }

    /** The in-memory store, its writes timed only: it keeps live objects, and sizing them would mean serializing each write. */
    static Checkpointer memory(MeterRegistry registry) {
        return new MeteredCheckpointer(new InMemoryCheckpointer(), new CheckpointWriteMeters(registry, "memory", false));
    }

    @Override
    public Uni<Void> put(Checkpoint checkpoint, String expectedHead) {
        long start = System.nanoTime();
        return timed(Kind.CHECKPOINT, start, store.put(checkpoint, expectedHead));
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        long start = System.nanoTime();
        return timed(Kind.PENDING_WRITES, start, store.putWrites(threadId, ns, checkpointId, writes));
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        long start = System.nanoTime();
        return timed(Kind.SNAPSHOT, start, store.putSnapshot(threadId, ns, checkpointId, values));
    }

    private Uni<Void> timed(Kind kind, long start, Uni<Void> write) {
        return write.onTermination().invoke((v, failure, cancelled) -> {
            if (!cancelled) { // a cancelled write's time says when the caller gave up, not how long the store took
                meters.ended(kind, start);
            }
        });
    }
}
