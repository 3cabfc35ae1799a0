package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.json;
import static io.conduit.persistence.SqlValues.jsonOrNull;
import static io.conduit.persistence.SqlValues.map;
import static io.conduit.persistence.SqlValues.time;

import io.conduit.runs.SortOrder;
import io.conduit.runs.ThreadExistsException;
import io.conduit.runs.ThreadRecord;
import io.conduit.runs.ThreadStatus;
import io.conduit.runs.ThreadStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** Thread records in PostgreSQL ({@code conduit_thread_records}, V3), through the reactive client. */
public final class PostgresThreadStore implements ThreadStore {

    private static final String COLUMNS = "t.thread_id, t.metadata::text AS metadata, t.status, t.created_at, t.updated_at, t.expires_at";
    /** Filters that are off when their parameter is null; $1 metadata, $2 status. */
    private static final String FILTER = " WHERE ($1::text IS NULL OR t.metadata @> $1::text::jsonb) AND ($2::text IS NULL OR t.status = $2)";

    private final SqlClient client;

    public PostgresThreadStore(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<ThreadRecord> create(String threadId, Map<String, Object> metadata, Instant expiresAt, boolean doNothingIfExists, Instant now) {
        Tuple args = Tuple.tuple().addValue(threadId).addValue(json(metadata)).addValue(ThreadStatus.IDLE.wire())
                .addValue(time(now)).addValue(time(expiresAt));
        return client.preparedQuery("INSERT INTO conduit_thread_records AS t (thread_id, metadata, status, created_at, updated_at, expires_at) "
                        + "VALUES ($1, $2::text::jsonb, $3, $4, $4, $5) ON CONFLICT (thread_id) DO NOTHING RETURNING " + COLUMNS)
                .execute(args).flatMap(rows -> {
                    Optional<ThreadRecord> created = first(rows);
                    if (created.isPresent()) {
                        return Uni.createFrom().item(created.get());
                    }
                    if (!doNothingIfExists) {
                        return Uni.createFrom().failure(new ThreadExistsException(threadId));
                    }
                    // deleted in between: rare enough to report as the conflict it was
                    return get(threadId).map(existing -> existing.orElseThrow(() -> new ThreadExistsException(threadId)));
                });
    }

    @Override
    public Uni<Optional<ThreadRecord>> get(String threadId) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM conduit_thread_records t WHERE t.thread_id = $1")
                .execute(Tuple.of(threadId)).map(PostgresThreadStore::first);
    }

    @Override
    public Uni<List<ThreadRecord>> search(Map<String, Object> metadata, ThreadStatus status, int limit, int offset, String sortBy, String sortOrder) {
        SortOrder sort;
        try {
            sort = SortOrder.of(sortBy, sortOrder, SORTS);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(e);
        }
        Tuple args = Tuple.tuple().addValue(jsonOrNull(metadata)).addValue(status == null ? null : status.wire()).addValue(limit).addValue(offset);
        return client.preparedQuery("SELECT " + COLUMNS + " FROM conduit_thread_records t" + FILTER
                        + " ORDER BY " + sort.sql("t", "thread_id") + " LIMIT $3 OFFSET $4")
                .execute(args).map(PostgresThreadStore::all);
    }

    @Override
    public Uni<Long> count(Map<String, Object> metadata, ThreadStatus status) {
        Tuple args = Tuple.tuple().addValue(jsonOrNull(metadata)).addValue(status == null ? null : status.wire());
        return client.preparedQuery("SELECT count(*) FROM conduit_thread_records t" + FILTER)
                .execute(args).map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<Optional<ThreadRecord>> patchMetadata(String threadId, Map<String, Object> metadata, Instant now) {
        // || on jsonb objects: the patch's keys replace the thread's, the others stay
        return client.preparedQuery("UPDATE conduit_thread_records t SET metadata = t.metadata || $2::text::jsonb, updated_at = $3 "
                        + "WHERE t.thread_id = $1 RETURNING " + COLUMNS)
                .execute(Tuple.of(threadId, json(metadata), time(now))).map(PostgresThreadStore::first);
    }

    @Override
    public Uni<Optional<ThreadRecord>> patchMetadataIf(String threadId, String key, String expected, Map<String, Object> metadata,
                                                       Instant now) {
        Object value = metadata.get(key);
        // one conditional UPDATE: a writer that waited on the row lock sees the winner's row and its condition fails
        return client.preparedQuery("UPDATE conduit_thread_records t SET metadata = t.metadata || $2::text::jsonb, updated_at = $3 "
                        + "WHERE t.thread_id = $1 AND (t.metadata->>$4 IS NOT DISTINCT FROM $5 OR t.metadata->>$4 = $6) RETURNING " + COLUMNS)
                .execute(Tuple.tuple().addValue(threadId).addValue(json(metadata)).addValue(time(now)).addValue(key).addValue(expected)
                        .addValue(value == null ? null : String.valueOf(value)))
                .map(PostgresThreadStore::first)
                .chain(patched -> patched.isPresent() ? Uni.createFrom().item(patched) : get(threadId));
    }

    @Override
    public Uni<Void> setStatus(String threadId, ThreadStatus status, Instant now) {
        return client.preparedQuery("UPDATE conduit_thread_records SET status = $2, updated_at = $3 WHERE thread_id = $1")
                .execute(Tuple.of(threadId, status.wire(), time(now))).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> delete(String threadId) {
        return client.preparedQuery("DELETE FROM conduit_thread_records WHERE thread_id = $1")
                .execute(Tuple.of(threadId)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Long> beginRun(String threadId, int size, Instant now) {
        if (size < 1) {
            return Uni.createFrom().failure(new IllegalArgumentException("reserve at least one sequence number, not " + size));
        }
        return client.preparedQuery("UPDATE conduit_thread_records SET status = $3, updated_at = $4, next_seq = next_seq + $2 "
                        + "WHERE thread_id = $1 RETURNING next_seq - $2")
                .execute(Tuple.of(threadId, (long) size, ThreadStatus.BUSY.wire(), time(now))).map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw new NoSuchElementException("thread " + threadId + " does not exist");
                    }
                    return rows.iterator().next().getLong(0);
                });
    }

    @Override
    public Uni<Long> reserveSeq(String threadId, int size) {
        if (size < 1) {
            return Uni.createFrom().failure(new IllegalArgumentException("reserve at least one sequence number, not " + size));
        }
        // one row update: concurrent reservations queue on the row lock, and the reservation is durable once committed
        return client.preparedQuery("UPDATE conduit_thread_records SET next_seq = next_seq + $2 WHERE thread_id = $1 RETURNING next_seq - $2")
                .execute(Tuple.of(threadId, (long) size)).map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw new NoSuchElementException("thread " + threadId + " does not exist");
                    }
                    return rows.iterator().next().getLong(0);
                });
    }

    @Override
    public Uni<List<String>> expired(Instant now, int limit) {
        return client.preparedQuery("SELECT thread_id FROM conduit_thread_records WHERE expires_at <= $1 ORDER BY expires_at, thread_id LIMIT $2")
                .execute(Tuple.of(time(now), limit)).map(rows -> {
                    List<String> out = new ArrayList<>(rows.size());
                    rows.forEach(r -> out.add(r.getString(0)));
                    return out;
                });
    }

    private static Optional<ThreadRecord> first(RowSet<Row> rows) {
        return SqlValues.first(rows, PostgresThreadStore::record);
    }

    private static List<ThreadRecord> all(RowSet<Row> rows) {
        return SqlValues.all(rows, PostgresThreadStore::record);
    }

    private static ThreadRecord record(Row r) {
        return new ThreadRecord(r.getString("thread_id"), map(r, "metadata"), ThreadStatus.of(r.getString("status")),
                instant(r, "created_at"), instant(r, "updated_at"), instant(r, "expires_at"));
    }
}
