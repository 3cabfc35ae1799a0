package io.conduit.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The durable {@link Checkpointer}, on PostgreSQL through the reactive client: non-blocking, and one round trip
 * per checkpoint (advancing the head and inserting the row is a single statement). Schema:
 * {@code db/migration/V1__checkpoints.sql}.
 *
 * <p>Checkpoint and run ids must be UUIDs (the engine's are UUIDv7, so {@code uuid} order is creation order). Channel
 * values are stored as the JSON text their codecs produce; rows of an unknown {@code format} are refused.
 *
 * <p>A statement whose connection is lost (server restart, terminated backend) is repeated a few times with backoff
 * ({@link ConnectionRetry}) rather than failing the run. Every statement is safe to repeat; a put is made so by its
 * compare-and-set, and a repeat that finds its own checkpoint stored counts as the success it was.
 */
public final class PostgresCheckpointer implements Checkpointer {

    /** Encoding version of the JSON columns this class writes and reads. */
    static final short FORMAT = 1;

    private static final String COLUMNS = "c.checkpoint_id, c.parent_id, c.step, c.source, c.format, c.chain_length, c.run_id, "
            + "c.next, c.next_sends::text, c.channel_values::text, c.channel_deltas::text, c.metadata::text";

    private static final String INSERT_CHECKPOINT = "INSERT INTO conduit_checkpoints (thread_key, checkpoint_id, parent_id, step, "
            + "source, format, chain_length, run_id, next, next_sends, channel_values, channel_deltas, metadata) "
            + "SELECT thread_key, $3, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13::text::jsonb, $14::text::jsonb, $15::text::jsonb FROM h";

    /** Advances an existing head with a compare-and-set; no row comes back from {@code h} when the head moved. */
    private static final String PUT_NEXT = "WITH h AS (UPDATE conduit_threads SET head_id = $3, updated_at = now() "
            + "WHERE thread_id = $1 AND ns = $2 AND head_id = $4 RETURNING thread_key) " + INSERT_CHECKPOINT;

    /** Starts a namespace; no row comes back from {@code h} when another writer started it first. */
    private static final String PUT_FIRST = "WITH h AS (INSERT INTO conduit_threads (thread_id, ns, head_id) VALUES ($1, $2, $3) "
            + "ON CONFLICT (thread_id, ns) DO NOTHING RETURNING thread_key) " + INSERT_CHECKPOINT + " WHERE $4::uuid IS NULL";

    private static final String WRITES_OF = "(SELECT json_agg(json_build_array(w.task_id, w.node, w.idx, w.channel, w.value))::text "
            + "FROM conduit_writes w WHERE w.thread_key = c.thread_key AND w.checkpoint_id = c.checkpoint_id)";

    private static final String HEAD = "SELECT " + COLUMNS + ", " + WRITES_OF + " FROM conduit_threads t "
            + "JOIN conduit_checkpoints c ON c.thread_key = t.thread_key AND c.checkpoint_id = t.head_id "
            + "WHERE t.thread_id = $1 AND t.ns = $2";

    private static final String GET = "SELECT " + COLUMNS + ", " + WRITES_OF + " FROM conduit_threads t "
            + "JOIN conduit_checkpoints c ON c.thread_key = t.thread_key WHERE t.thread_id = $1 AND t.ns = $2 AND c.checkpoint_id = $3";

    /** Walks up the parent chain until a checkpoint with a snapshot; the rows come back oldest first. */
    private static final String CHAIN = "WITH RECURSIVE t AS (SELECT thread_key FROM conduit_threads WHERE thread_id = $1 AND ns = $2), "
            + "chain AS ("
            + " SELECT c.*, 0 AS depth, s.channel_values AS snapshot, s.format AS snapshot_format FROM conduit_checkpoints c JOIN t ON c.thread_key = t.thread_key"
            + "  LEFT JOIN conduit_snapshots s ON s.thread_key = c.thread_key AND s.checkpoint_id = c.checkpoint_id WHERE c.checkpoint_id = $3"
            + " UNION ALL"
            + " SELECT p.*, chain.depth + 1, s.channel_values, s.format FROM chain JOIN conduit_checkpoints p ON p.thread_key = chain.thread_key AND p.checkpoint_id = chain.parent_id"
            + "  LEFT JOIN conduit_snapshots s ON s.thread_key = p.thread_key AND s.checkpoint_id = p.checkpoint_id WHERE chain.snapshot IS NULL"
            + ") SELECT " + COLUMNS + ", c.snapshot::text, c.snapshot_format FROM chain c ORDER BY c.depth DESC";

    private static final String LIST = "SELECT " + COLUMNS + " FROM conduit_threads t JOIN conduit_checkpoints c ON c.thread_key = t.thread_key "
            + "WHERE t.thread_id = $1 AND t.ns = $2 AND ($3::uuid IS NULL OR c.checkpoint_id < $3) ORDER BY c.checkpoint_id DESC LIMIT $4";

    private static final String PUT_WRITES = "INSERT INTO conduit_writes (thread_key, checkpoint_id, task_id, idx, node, channel, value) "
            + "SELECT t.thread_key, $3, w.task_id, w.idx, w.node, w.channel, w.value::jsonb FROM conduit_threads t, "
            + "unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[]) AS w(task_id, idx, node, channel, value) "
            + "WHERE t.thread_id = $1 AND t.ns = $2 "
            + "ON CONFLICT (thread_key, checkpoint_id, task_id, idx) DO UPDATE SET node = EXCLUDED.node, channel = EXCLUDED.channel, value = EXCLUDED.value";

    private static final String DELETE_WRITES = "DELETE FROM conduit_writes w USING conduit_threads t "
            + "WHERE t.thread_id = $1 AND t.ns = $2 AND w.thread_key = t.thread_key AND w.checkpoint_id = $3";

    /** A namespace keeps its newest snapshot only: older ones serve only reads of old checkpoints, which replay instead. */
    private static final String PUT_SNAPSHOT = "WITH t AS (SELECT t.thread_key FROM conduit_threads t JOIN conduit_checkpoints c "
            + "ON c.thread_key = t.thread_key AND c.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2), "
            + "old AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key AND s.checkpoint_id < $3) "
            + "INSERT INTO conduit_snapshots (thread_key, checkpoint_id, format, channel_values) SELECT t.thread_key, $3, $4, $5::text::jsonb FROM t "
            + "ON CONFLICT (thread_key, checkpoint_id) DO UPDATE SET format = EXCLUDED.format, channel_values = EXCLUDED.channel_values";

    private static final String PRUNE = "WITH t AS (SELECT t.thread_key FROM conduit_threads t JOIN conduit_snapshots s "
            + "ON s.thread_key = t.thread_key AND s.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2), "
            + "w AS (DELETE FROM conduit_writes w USING t WHERE w.thread_key = t.thread_key AND w.checkpoint_id < $3), "
            + "s AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key AND s.checkpoint_id < $3), "
            + "c AS (DELETE FROM conduit_checkpoints c USING t WHERE c.thread_key = t.thread_key AND c.checkpoint_id < $3 RETURNING 1) "
            + "SELECT (SELECT count(*) FROM t) AS found, (SELECT count(*) FROM c) AS deleted";

    private static final String DELETE_THREAD = "WITH t AS (DELETE FROM conduit_threads WHERE thread_id = $1 RETURNING thread_key), "
            + "c AS (DELETE FROM conduit_checkpoints c USING t WHERE c.thread_key = t.thread_key), "
            + "w AS (DELETE FROM conduit_writes w USING t WHERE w.thread_key = t.thread_key), "
            + "s AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key) SELECT count(*) FROM t";

    /**
     * Rolls a run back in one statement, so it is all or nothing: {@code orphans} counts checkpoints of others built
     * on the run's, and every change is conditional on there being none. A head is moved only where it is one of the
     * run's, and only if it still is when the row is locked (a writer that got there first keeps its head).
     */
    private static final String DELETE_RUN = "WITH t AS (SELECT thread_key, head_id FROM conduit_threads WHERE thread_id = $1), "
            + "run AS (SELECT c.thread_key, c.checkpoint_id FROM conduit_checkpoints c JOIN t ON c.thread_key = t.thread_key WHERE c.run_id = $2), "
            + "orphans AS (SELECT count(*) AS n, min(c.checkpoint_id::text) AS example FROM conduit_checkpoints c JOIN run r "
            + " ON c.thread_key = r.thread_key AND c.parent_id = r.checkpoint_id WHERE c.run_id IS DISTINCT FROM $2), "
            + "heads AS (SELECT t.thread_key, t.head_id AS old, (SELECT c.checkpoint_id FROM conduit_checkpoints c WHERE c.thread_key = t.thread_key "
            + " AND c.run_id IS DISTINCT FROM $2 ORDER BY c.checkpoint_id DESC LIMIT 1) AS head FROM t JOIN run r "
            + " ON r.thread_key = t.thread_key AND r.checkpoint_id = t.head_id WHERE (SELECT n FROM orphans) = 0), "
            + "moved AS (UPDATE conduit_threads th SET head_id = h.head, updated_at = now() FROM heads h "
            + " WHERE th.thread_key = h.thread_key AND th.head_id = h.old AND h.head IS NOT NULL), "
            + "emptied AS (DELETE FROM conduit_threads th USING heads h WHERE th.thread_key = h.thread_key AND th.head_id = h.old AND h.head IS NULL), "
            + "w AS (DELETE FROM conduit_writes w USING run r WHERE w.thread_key = r.thread_key AND w.checkpoint_id = r.checkpoint_id "
            + " AND (SELECT n FROM orphans) = 0), "
            + "s AS (DELETE FROM conduit_snapshots s USING run r WHERE s.thread_key = r.thread_key AND s.checkpoint_id = r.checkpoint_id "
            + " AND (SELECT n FROM orphans) = 0), "
            + "c AS (DELETE FROM conduit_checkpoints c USING run r WHERE c.thread_key = r.thread_key AND c.checkpoint_id = r.checkpoint_id "
            + " AND (SELECT n FROM orphans) = 0 RETURNING 1) "
            + "SELECT (SELECT n FROM orphans) AS orphans, (SELECT example FROM orphans) AS example, (SELECT count(*) FROM c) AS deleted";

    /** Whether a checkpoint is stored: how a put repeated after a lost connection tells its own success from a conflict. */
    private static final String STORED = "SELECT 1 FROM conduit_threads t JOIN conduit_checkpoints c ON c.thread_key = t.thread_key "
            + "AND c.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2";

    private final SqlClient client;
    private final ConnectionRetry retry;

    /** @param client a pool, or a pipelining client over one: every call here is a single statement */
    public PostgresCheckpointer(SqlClient client) {
        this(client, ConnectionRetry.defaults());
    }

    PostgresCheckpointer(SqlClient client, ConnectionRetry retry) {
        this.client = client;
        this.retry = retry;
    }

    public PostgresCheckpointer(Pool pool) {
        this((SqlClient) pool);
    }

    // ---- writes

    @Override
    public Uni<Void> put(Checkpoint cp, String expectedHead) {
        Tuple args = Tuple.tuple()
                .addValue(cp.threadId()).addValue(cp.ns()).addValue(uuid(cp.id()))
                .addValue(expectedHead == null ? null : uuid(expectedHead))
                .addValue(cp.parentId() == null ? null : uuid(cp.parentId()))
                .addValue(cp.step()).addValue(cp.source().wire()).addValue(FORMAT).addValue(cp.chainLength())
                .addValue(cp.runId() == null ? null : uuid(cp.runId()))
                .addValue(cp.next().isEmpty() ? null : nextNodes(cp.next()))
                .addValue(nextInputs(cp.next()))
                .addValue(encodeChannels(cp.values()))
                .addValue(encodeChannels(cp.deltas()))
                .addValue(cp.metadata().isEmpty() ? null : json(cp.metadata()));
        String sql = expectedHead == null ? PUT_FIRST : PUT_NEXT;
        return retry.run("checkpoint " + cp.id() + " of thread " + cp.threadId(), attempt -> client.preparedQuery(sql).execute(args)
                .flatMap(rows -> {
                    if (rows.rowCount() > 0) {
                        return Uni.createFrom().voidItem();
                    }
                    CheckpointConflictException conflict = new CheckpointConflictException(cp.threadId(), cp.ns(), expectedHead);
                    if (attempt == 1) {
                        return Uni.createFrom().failure(conflict);
                    }
                    // a repeat: the attempt whose connection was lost may have committed first, and then the head
                    // moved past expectedHead to this very checkpoint (ids are unique, so its row says so)
                    return client.preparedQuery(STORED).execute(Tuple.of(cp.threadId(), cp.ns(), uuid(cp.id()))).map(found -> {
                        if (found.size() == 0) {
                            throw conflict;
                        }
                        return null;
                    });
                }));
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = writes.size();
        String[] tasks = new String[n];
        Integer[] idx = new Integer[n];
        String[] nodes = new String[n];
        String[] channels = new String[n];
        String[] values = new String[n];
        for (int i = 0; i < n; i++) {
            PendingWrite w = writes.get(i);
            tasks[i] = w.taskId();
            idx[i] = w.idx();
            nodes[i] = w.node();
            channels[i] = w.channel();
            values[i] = w.value().json();
        }
        Tuple args = Tuple.of(threadId, ns, uuid(checkpointId)).addArrayOfString(tasks).addArrayOfInteger(idx)
                .addArrayOfString(nodes).addArrayOfString(channels).addArrayOfString(values);
        return execute("pending writes of checkpoint " + checkpointId, PUT_WRITES, args).replaceWithVoid();
    }

    @Override
    public Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().voidItem();
        }
        return execute("deletion of the pending writes of checkpoint " + checkpointId, DELETE_WRITES, Tuple.of(threadId, ns, id)).replaceWithVoid();
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        Tuple args = Tuple.of(threadId, ns, uuid(checkpointId), FORMAT, encodeChannels(values));
        return execute("snapshot at checkpoint " + checkpointId, PUT_SNAPSHOT, args).replaceWithVoid();
    }

    @Override
    public Uni<Long> prune(String threadId, String ns, String keepFrom) {
        UUID keep = parseUuid(keepFrom);
        if (keep == null) {
            return Uni.createFrom().failure(new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state"));
        }
        return execute("prune of thread " + threadId, PRUNE, Tuple.of(threadId, ns, keep)).map(rows -> {
            Row r = rows.iterator().next();
            if (r.getLong("found") == 0) {
                throw new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state");
            }
            return r.getLong("deleted");
        });
    }

    @Override
    public Uni<Long> deleteRun(String threadId, String runId) {
        UUID run = parseUuid(runId);
        if (run == null) {
            return Uni.createFrom().item(0L); // run ids are UUIDs: no checkpoint carries this one
        }
        return execute("rollback of run " + runId, DELETE_RUN, Tuple.of(threadId, run)).map(rows -> {
            Row r = rows.iterator().next();
            if (r.getLong("orphans") > 0) {
                throw new IllegalStateException("thread " + threadId + ": checkpoint " + r.getString("example")
                        + " of another run builds on run " + runId + "; roll that back first");
            }
            return r.getLong("deleted");
        });
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return execute("deletion of thread " + threadId, DELETE_THREAD, Tuple.of(threadId)).replaceWithVoid();
    }

    // ---- reads

    @Override
    public Uni<Optional<Head>> head(String threadId, String ns) {
        return execute("head of thread " + threadId, HEAD, Tuple.of(threadId, ns)).map(rows -> headOf(rows, threadId, ns));
    }

    @Override
    public Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return execute("checkpoint " + checkpointId, GET, Tuple.of(threadId, ns, id)).map(rows -> headOf(rows, threadId, ns));
    }

    @Override
    public Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return execute("state of checkpoint " + checkpointId, CHAIN, Tuple.of(threadId, ns, id)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Map<String, Stored> base = Map.of();
            List<Checkpoint> since = new ArrayList<>(rows.size());
            for (Row r : rows) {
                String snapshot = r.getString(12);
                if (snapshot != null) {
                    checkFormat(r.getShort(13), threadId, "snapshot at " + r.getUUID(0));
                    base = decodeChannels(snapshot, threadId);
                    since.clear(); // rows come oldest first: the snapshot row starts the chain
                } else {
                    since.add(checkpointOf(r, threadId, ns));
                }
            }
            Checkpoint target = since.isEmpty() ? checkpointOf(last(rows), threadId, ns) : since.get(since.size() - 1);
            return Optional.of(new CheckpointChain(target, base, since));
        });
    }

    @Override
    public Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        UUID b = before == null ? null : parseUuid(before);
        if (before != null && b == null) {
            return Uni.createFrom().item(List.of());
        }
        Tuple args = Tuple.tuple().addValue(threadId).addValue(ns).addValue(b).addValue(limit);
        return execute("history of thread " + threadId, LIST, args).map(rows -> {
            List<Checkpoint> out = new ArrayList<>(rows.size());
            for (Row r : rows) {
                out.add(checkpointOf(r, threadId, ns));
            }
            return out;
        });
    }

    /** One statement, repeated on a lost connection: every statement but put's is safe to repeat as it is. */
    private Uni<RowSet<Row>> execute(String what, String sql, Tuple args) {
        return retry.run(what, attempt -> client.preparedQuery(sql).execute(args));
    }

    // ---- row mapping

    private Optional<Head> headOf(RowSet<Row> rows, String threadId, String ns) {
        Iterator<Row> it = rows.iterator();
        if (!it.hasNext()) {
            return Optional.empty();
        }
        Row r = it.next();
        return Optional.of(new Head(checkpointOf(r, threadId, ns), pendingWrites(r.getString(12), threadId)));
    }

    private static Checkpoint checkpointOf(Row r, String threadId, String ns) {
        UUID id = r.getUUID(0);
        checkFormat(r.getShort(4), threadId, "checkpoint " + id);
        UUID parent = r.getUUID(1);
        UUID run = r.getUUID(6);
        String metadata = r.getString(11);
        return new Checkpoint(threadId, ns, id.toString(), parent == null ? null : parent.toString(), r.getInteger(2),
                source(r.getString(3), threadId, id), run == null ? null : run.toString(), decodeChannels(r.getString(9), threadId),
                decodeChannels(r.getString(10), threadId),
                decodeNext(r.getString(7), r.getString(8), threadId), metadata == null ? Map.of() : decodeMetadata(metadata, threadId),
                id.getMostSignificantBits() >>> 16, r.getInteger(5));
    }

    /** A row's source; a name no version wrote is refused, as an unknown format is, rather than misread. */
    private static CheckpointSource source(String stored, String threadId, UUID id) {
        try {
            return CheckpointSource.of(stored);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("thread " + threadId + ": checkpoint " + id + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static void checkFormat(short format, String threadId, String what) {
        if (format != FORMAT) {
            throw new IllegalStateException("thread " + threadId + ": " + what + " is stored in format " + format
                    + ", which this version cannot read (it reads format " + FORMAT + ")");
        }
    }

    private static List<PendingWrite> pendingWrites(String json, String threadId) {
        if (json == null) {
            return List.of();
        }
        JsonNode array = tree(json, threadId, "pending writes");
        List<PendingWrite> out = new ArrayList<>(array.size());
        for (JsonNode w : array) {
            out.add(new PendingWrite(w.get(0).asText(), w.get(1).asText(), w.get(2).asInt(), w.get(3).asText(), Stored.json(w.get(4).toString())));
        }
        return out;
    }

    // ---- JSON columns

    /** {@code {"channel": <value json>, ...}}, or null when there is nothing. */
    private static String encodeChannels(Map<String, Stored> values) {
        if (values.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(128).append('{');
        for (Map.Entry<String, Stored> e : values.entrySet()) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(json(e.getKey())).append(':').append(e.getValue().json());
        }
        return sb.append('}').toString();
    }

    private static Map<String, Stored> decodeChannels(String json, String threadId) {
        if (json == null) {
            return Map.of();
        }
        Map<String, Stored> out = new LinkedHashMap<>();
        tree(json, threadId, "channel values").fields().forEachRemaining(e -> out.put(e.getKey(), Stored.json(e.getValue().toString())));
        return out;
    }

    /** Node names, comma-separated (node names cannot contain commas): a few bytes where JSON took dozens. */
    private static String nextNodes(List<TaskSpec> next) {
        StringBuilder sb = new StringBuilder(32);
        for (TaskSpec t : next) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(t.node());
        }
        return sb.toString();
    }

    /** {@code [{"i": position, "input": <json>}]} for the tasks that carry an input ({@code Send}); null when none do. */
    private static String nextInputs(List<TaskSpec> next) {
        StringBuilder sb = null;
        for (int i = 0; i < next.size(); i++) {
            Stored input = next.get(i).input();
            if (input != null) {
                sb = sb == null ? new StringBuilder("[") : sb.append(',');
                sb.append("{\"i\":").append(i).append(",\"input\":").append(input.json()).append('}');
            }
        }
        return sb == null ? null : sb.append(']').toString();
    }

    private static List<TaskSpec> decodeNext(String nodes, String inputs, String threadId) {
        if (nodes == null) {
            return List.of();
        }
        String[] names = nodes.split(",");
        Stored[] given = new Stored[names.length];
        if (inputs != null) {
            for (JsonNode t : tree(inputs, threadId, "next task inputs")) {
                given[t.get("i").asInt()] = Stored.json(t.get("input").toString());
            }
        }
        List<TaskSpec> out = new ArrayList<>(names.length);
        for (int i = 0; i < names.length; i++) {
            out.add(new TaskSpec(names[i], given[i]));
        }
        return Collections.unmodifiableList(out);
    }

    private static Map<String, String> decodeMetadata(String json, String threadId) {
        Map<String, String> out = new LinkedHashMap<>();
        tree(json, threadId, "metadata").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    private static JsonNode tree(String json, String threadId, String what) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("thread " + threadId + ": stored " + what + " are not valid JSON", e);
        }
    }

    private static String json(Object value) {
        try {
            return JsonCodec.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    // ---- ids

    private static UUID uuid(String id) {
        UUID u = parseUuid(id);
        if (u == null) {
            throw new IllegalArgumentException("checkpoint and run ids are UUIDs: " + id);
        }
        return u;
    }

    private static UUID parseUuid(String id) {
        if (id == null || id.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Row last(RowSet<Row> rows) {
        Row last = null;
        for (Row r : rows) {
            last = r;
        }
        return last;
    }
}
