package io.conduit.persistence;

/**
 * The statements of {@link PostgresCheckpointer}, on the tables of {@code db/migration/V1__checkpoints.sql}. Each
 * is a single statement, so each is one round trip and safe to repeat on a lost connection ({@link ConnectionRetry}).
 */
final class CheckpointSql {

    private CheckpointSql() {
    }

    /** The columns {@link CheckpointRows#checkpointOf} reads, in its order. */
    private static final String COLUMNS = "c.checkpoint_id, c.parent_id, c.step, c.source, c.format, c.chain_length, c.run_id, "
            + "c.next, c.next_sends::text, c.channel_values::text, c.channel_deltas::text, c.metadata::text";

    private static final String INSERT_CHECKPOINT = "INSERT INTO conduit_checkpoints (thread_key, checkpoint_id, parent_id, step, "
            + "source, format, chain_length, run_id, next, next_sends, channel_values, channel_deltas, metadata) "
            + "SELECT thread_key, $3, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13::text::jsonb, $14::text::jsonb, $15::text::jsonb FROM h";

    /** Advances an existing head with a compare-and-set; no row comes back from {@code h} when the head moved. */
    static final String PUT_NEXT = "WITH h AS (UPDATE conduit_threads SET head_id = $3, updated_at = now() "
            + "WHERE thread_id = $1 AND ns = $2 AND head_id = $4 RETURNING thread_key) " + INSERT_CHECKPOINT;

    /** Starts a namespace; no row comes back from {@code h} when another writer started it first. */
    static final String PUT_FIRST = "WITH h AS (INSERT INTO conduit_threads (thread_id, ns, head_id) VALUES ($1, $2, $3) "
            + "ON CONFLICT (thread_id, ns) DO NOTHING RETURNING thread_key) " + INSERT_CHECKPOINT + " WHERE $4::uuid IS NULL";

    /**
     * Many puts of different threads in one statement (group commit, {@link CheckpointGroupCommit}): each row does the
     * compare-and-set of its own put ({@code PUT_FIRST} when it expects no head, else {@code PUT_NEXT}) and the rows
     * that won it are inserted. What comes back is the position (from 1) of each stored put; a put missing there
     * lost its compare-and-set. The puts must be of distinct threads and namespaces, so none depends on another.
     */
    static final String PUT_MANY = "WITH w AS (SELECT * FROM unnest($1::text[], $2::text[], $3::uuid[], $4::uuid[], $5::uuid[], "
            + "$6::int[], $7::text[], $9::int[], $10::uuid[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[]) "
            + "WITH ORDINALITY AS w(thread_id, ns, id, expected, parent_id, step, source, chain_length, run_id, next, next_sends, "
            + "channel_values, channel_deltas, metadata, pos)), "
            + "started AS (INSERT INTO conduit_threads (thread_id, ns, head_id) SELECT thread_id, ns, id FROM w WHERE expected IS NULL "
            + "ON CONFLICT (thread_id, ns) DO NOTHING RETURNING thread_key, thread_id, ns), "
            + "moved AS (UPDATE conduit_threads t SET head_id = w.id, updated_at = now() FROM w "
            + "WHERE w.expected IS NOT NULL AND t.thread_id = w.thread_id AND t.ns = w.ns AND t.head_id = w.expected RETURNING t.thread_key, w.pos), "
            + "h AS (SELECT s.thread_key, w.pos FROM started s JOIN w ON w.thread_id = s.thread_id AND w.ns = s.ns AND w.expected IS NULL "
            + "UNION ALL SELECT thread_key, pos FROM moved), "
            + "stored AS (INSERT INTO conduit_checkpoints (thread_key, checkpoint_id, parent_id, step, source, format, chain_length, run_id, "
            + "next, next_sends, channel_values, channel_deltas, metadata) "
            + "SELECT h.thread_key, w.id, w.parent_id, w.step, w.source, $8, w.chain_length, w.run_id, w.next, w.next_sends::jsonb, "
            + "w.channel_values::jsonb, w.channel_deltas::jsonb, w.metadata::jsonb FROM h JOIN w ON w.pos = h.pos) "
            + "SELECT pos::int FROM h";

    private static final String WRITES_OF = "(SELECT json_agg(json_build_array(w.task_id, w.node, w.idx, w.channel, w.value))::text "
            + "FROM conduit_writes w WHERE w.thread_key = c.thread_key AND w.checkpoint_id = c.checkpoint_id)";

    static final String HEAD = "SELECT " + COLUMNS + ", " + WRITES_OF + " FROM conduit_threads t "
            + "JOIN conduit_checkpoints c ON c.thread_key = t.thread_key AND c.checkpoint_id = t.head_id "
            + "WHERE t.thread_id = $1 AND t.ns = $2";

    static final String GET = "SELECT " + COLUMNS + ", " + WRITES_OF + " FROM conduit_threads t "
            + "JOIN conduit_checkpoints c ON c.thread_key = t.thread_key WHERE t.thread_id = $1 AND t.ns = $2 AND c.checkpoint_id = $3";

    /** Walks up the parent chain until a checkpoint with a snapshot; the rows come back oldest first. */
    static final String CHAIN = "WITH RECURSIVE t AS (SELECT thread_key FROM conduit_threads WHERE thread_id = $1 AND ns = $2), "
            + "chain AS ("
            + " SELECT c.*, 0 AS depth, s.channel_values AS snapshot, s.format AS snapshot_format FROM conduit_checkpoints c JOIN t ON c.thread_key = t.thread_key"
            + "  LEFT JOIN conduit_snapshots s ON s.thread_key = c.thread_key AND s.checkpoint_id = c.checkpoint_id WHERE c.checkpoint_id = $3"
            + " UNION ALL"
            + " SELECT p.*, chain.depth + 1, s.channel_values, s.format FROM chain JOIN conduit_checkpoints p ON p.thread_key = chain.thread_key AND p.checkpoint_id = chain.parent_id"
            + "  LEFT JOIN conduit_snapshots s ON s.thread_key = p.thread_key AND s.checkpoint_id = p.checkpoint_id WHERE chain.snapshot IS NULL"
            + ") SELECT " + COLUMNS + ", c.snapshot::text, c.snapshot_format FROM chain c ORDER BY c.depth DESC";

    static final String LIST = "SELECT " + COLUMNS + " FROM conduit_threads t JOIN conduit_checkpoints c ON c.thread_key = t.thread_key "
            + "WHERE t.thread_id = $1 AND t.ns = $2 AND ($3::uuid IS NULL OR c.checkpoint_id < $3) ORDER BY c.checkpoint_id DESC LIMIT $4";

    static final String PUT_WRITES = "INSERT INTO conduit_writes (thread_key, checkpoint_id, task_id, idx, node, channel, value) "
            + "SELECT t.thread_key, $3, w.task_id, w.idx, w.node, w.channel, w.value::jsonb FROM conduit_threads t, "
            + "unnest($4::text[], $5::int[], $6::text[], $7::text[], $8::text[]) AS w(task_id, idx, node, channel, value) "
            + "WHERE t.thread_id = $1 AND t.ns = $2 "
            + "ON CONFLICT (thread_key, checkpoint_id, task_id, idx) DO UPDATE SET node = EXCLUDED.node, channel = EXCLUDED.channel, value = EXCLUDED.value";

    static final String DELETE_WRITES = "DELETE FROM conduit_writes w USING conduit_threads t "
            + "WHERE t.thread_id = $1 AND t.ns = $2 AND w.thread_key = t.thread_key AND w.checkpoint_id = $3";

    /** A namespace keeps its newest snapshot only: older ones serve only reads of old checkpoints, which replay instead. */
    static final String PUT_SNAPSHOT = "WITH t AS (SELECT t.thread_key FROM conduit_threads t JOIN conduit_checkpoints c "
            + "ON c.thread_key = t.thread_key AND c.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2), "
            + "old AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key AND s.checkpoint_id < $3) "
            + "INSERT INTO conduit_snapshots (thread_key, checkpoint_id, format, channel_values) SELECT t.thread_key, $3, $4, $5::text::jsonb FROM t "
            + "ON CONFLICT (thread_key, checkpoint_id) DO UPDATE SET format = EXCLUDED.format, channel_values = EXCLUDED.channel_values";

    static final String PRUNE = "WITH t AS (SELECT t.thread_key FROM conduit_threads t JOIN conduit_snapshots s "
            + "ON s.thread_key = t.thread_key AND s.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2), "
            + "w AS (DELETE FROM conduit_writes w USING t WHERE w.thread_key = t.thread_key AND w.checkpoint_id < $3), "
            + "s AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key AND s.checkpoint_id < $3), "
            + "c AS (DELETE FROM conduit_checkpoints c USING t WHERE c.thread_key = t.thread_key AND c.checkpoint_id < $3 RETURNING 1) "
            + "SELECT (SELECT count(*) FROM t) AS found, (SELECT count(*) FROM c) AS deleted";

    static final String DELETE_THREAD = "WITH t AS (DELETE FROM conduit_threads WHERE thread_id = $1 RETURNING thread_key), "
            + "c AS (DELETE FROM conduit_checkpoints c USING t WHERE c.thread_key = t.thread_key), "
            + "w AS (DELETE FROM conduit_writes w USING t WHERE w.thread_key = t.thread_key), "
            + "s AS (DELETE FROM conduit_snapshots s USING t WHERE s.thread_key = t.thread_key) SELECT count(*) FROM t";

    /**
     * Rolls a run back in one statement, so it is all or nothing: {@code orphans} counts checkpoints of others built
     * on the run's, and every change is conditional on there being none. A head is moved only where it is one of the
     * run's, and only if it still is when the row is locked (a writer that got there first keeps its head).
     */
    static final String DELETE_RUN = "WITH t AS (SELECT thread_key, head_id FROM conduit_threads WHERE thread_id = $1), "
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
    static final String STORED = "SELECT 1 FROM conduit_threads t JOIN conduit_checkpoints c ON c.thread_key = t.thread_key "
            + "AND c.checkpoint_id = $3 WHERE t.thread_id = $1 AND t.ns = $2";
}
