package io.conduit.persistence;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.persistence.CheckpointWriteMeters.Kind;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service's {@link Checkpointer} with its writes timed ({@link CheckpointWriteMeters}): from the call, which for
 * Postgres includes encoding the row, to the answer, retries included, as the run waits for it. Reads and deletes pass
 * through untouched. Here rather than in the engine, which knows no metrics.
 */
final class MeteredCheckpointer implements Checkpointer {

    private final Checkpointer delegate;
    private final CheckpointWriteMeters meters;

    MeteredCheckpointer(Checkpointer delegate, CheckpointWriteMeters meters) {
        this.delegate = delegate;
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
        return timed(Kind.CHECKPOINT, start, delegate.put(checkpoint, expectedHead));
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        long start = System.nanoTime();
        return timed(Kind.PENDING_WRITES, start, delegate.putWrites(threadId, ns, checkpointId, writes));
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        long start = System.nanoTime();
        return timed(Kind.SNAPSHOT, start, delegate.putSnapshot(threadId, ns, checkpointId, values));
    }

    private Uni<Void> timed(Kind kind, long start, Uni<Void> write) {
        return write.onTermination().invoke((v, failure, cancelled) -> {
            if (!cancelled) { // a cancelled write's time says when the caller gave up, not how long the store took
                meters.ended(kind, start);
            }
        });
    }

    @Override
    public Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        return delegate.deleteWrites(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Optional<Head>> head(String threadId, String ns) {
        return delegate.head(threadId, ns);
    }

    @Override
    public Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        return delegate.get(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        return delegate.chain(threadId, ns, checkpointId);
    }

    @Override
    public Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        return delegate.list(threadId, ns, limit, before);
    }

    @Override
    public Uni<Long> prune(String threadId, String ns, String keepFrom) {
        return delegate.prune(threadId, ns, keepFrom);
    }

    @Override
    public Uni<Long> deleteRun(String threadId, String runId) {
        return delegate.deleteRun(threadId, runId);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return delegate.deleteThread(threadId);
    }
}
