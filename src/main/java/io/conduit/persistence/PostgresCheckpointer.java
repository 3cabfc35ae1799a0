package io.conduit.persistence;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The durable {@link Checkpointer}, on PostgreSQL through the reactive client: non-blocking, and one round trip
 * per checkpoint (advancing the head and inserting the row is a single statement), shared by the checkpoints of
 * many threads when they come at once ({@link CheckpointGroupCommit}). Schema:
 * {@code db/migration/V1__checkpoints.sql}.
 *
 * <p>Checkpoint and run ids must be UUIDs (the engine's are UUIDv7, so {@code uuid} order is creation order). Channel
 * values are stored as the JSON text their codecs produce; rows of an unknown {@code format} are refused.
 *
 * <p>A statement whose connection is lost (server restart, terminated backend) is repeated a few times with backoff
 * ({@link ConnectionRetry}) rather than failing the run. Every statement is safe to repeat; a put is made so by its
 * compare-and-set, and a repeat that finds its own checkpoint stored counts as the success it was.
 *
 * <p>The parts: the statements ({@link CheckpointSql}), the column values ({@link CheckpointColumns}) and rows
 * ({@link CheckpointRows}), and the three kinds of call ({@link CheckpointWrites}, {@link CheckpointReads},
 * {@link CheckpointDeletes}).
 */
public final class PostgresCheckpointer implements Checkpointer {

    private final CheckpointWrites writes;
    private final CheckpointReads reads;
    private final CheckpointDeletes deletes;

    /** @param client a pool, or a pipelining client over one: every call here is a single statement */
    public PostgresCheckpointer(SqlClient client) {
        this(client, ConnectionRetry.defaults(), null);
    }

    PostgresCheckpointer(SqlClient client, ConnectionRetry retry) {
        this(client, retry, null);
    }

    /** @param meters where the size of each write goes ({@link CheckpointWriteMeters#sent}); null: not measured */
    PostgresCheckpointer(SqlClient client, ConnectionRetry retry, CheckpointWriteMeters meters) {
        CheckpointStatements sql = new CheckpointStatements(client, retry);
        this.writes = new CheckpointWrites(sql, CheckpointGroupCommit.defaults(client), meters);
        this.reads = new CheckpointReads(sql);
        this.deletes = new CheckpointDeletes(sql);
    }

    public PostgresCheckpointer(Pool pool) {
        this((SqlClient) pool);
    }

    // ---- writes

    @Override
    public Uni<Void> put(Checkpoint cp, String expectedHead) {
        return writes.put(cp, expectedHead);
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> pending) {
        return writes.putWrites(threadId, ns, checkpointId, pending);
    }

    @Override
    public Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        return writes.deleteWrites(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        return writes.putSnapshot(threadId, ns, checkpointId, values);
    }

    @Override
    public Uni<Long> prune(String threadId, String ns, String keepFrom) {
        return deletes.prune(threadId, ns, keepFrom);
    }

    @Override
    public Uni<Long> deleteRun(String threadId, String runId) {
        return deletes.deleteRun(threadId, runId);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return deletes.deleteThread(threadId);
    }

    // ---- reads

    @Override
    public Uni<Optional<Head>> head(String threadId, String ns) {
        return reads.head(threadId, ns);
    }

    @Override
    public Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        return reads.get(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        return reads.chain(threadId, ns, checkpointId);
    }

    @Override
    public Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        return reads.list(threadId, ns, limit, before);
    }
}
