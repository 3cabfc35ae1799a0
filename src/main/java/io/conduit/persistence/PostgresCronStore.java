package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.json;
import static io.conduit.persistence.SqlValues.jsonOrNull;
import static io.conduit.persistence.SqlValues.map;
import static io.conduit.persistence.SqlValues.time;

import io.conduit.runs.Cron;
import io.conduit.runs.CronClaim;
import io.conduit.runs.CronStore;
import io.conduit.runs.SortOrder;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Crons in PostgreSQL ({@code conduit_crons}, V10). A tick is claimed in one transaction: the due rows are locked with
 * {@code FOR UPDATE SKIP LOCKED} (a claimer at the same moment skips them and takes others, or none), each one's next
 * tick is computed from its schedule (cron-utils, in Java) and written before the commit lets the locks go. A row
 * whose schedule no longer computes is written with no next tick rather than failing the claim ({@link CronClaim}).
 */
public final class PostgresCronStore implements CronStore {

    private static final String COLUMNS = "cron_id, assistant_id, thread_id, schedule, timezone, end_time, enabled, next_run_date, "
            + "on_run_completed, payload::text AS payload, metadata::text AS metadata, user_id, owner_admin, created_at, updated_at";
    /** Filters that are off when their parameter is null: $1 assistant, $2 thread, $3 enabled, $4 metadata, $5 owner. */
    private static final String FILTER = " WHERE ($1::text IS NULL OR assistant_id = $1) AND ($2::text IS NULL OR thread_id = $2) "
            + "AND ($3::boolean IS NULL OR enabled = $3) AND ($4::text IS NULL OR metadata @> $4::text::jsonb) "
            + "AND ($5::text IS NULL OR user_id = $5)";

    private final Pool pool;

    public PostgresCronStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Cron> create(Cron c) {
        return pool.preparedQuery("INSERT INTO conduit_crons (cron_id, assistant_id, thread_id, schedule, timezone, end_time, enabled, "
                        + "next_run_date, on_run_completed, payload, metadata, user_id, owner_admin, created_at, updated_at) VALUES ($1, $2, "
                        + "$3, $4, $5, $6, $7, $8, $9, $10::text::jsonb, $11::text::jsonb, $12, $13, $14, $15) RETURNING " + COLUMNS)
                .execute(args(c)).map(rows -> record(rows.iterator().next()));
    }

    @Override
    public Uni<Optional<Cron>> get(String cronId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_crons WHERE cron_id = $1").execute(Tuple.of(cronId))
                .map(rows -> SqlValues.first(rows, PostgresCronStore::record));
    }

    @Override
    public Uni<Optional<Cron>> update(String cronId, UnaryOperator<Cron> change) {
        // the row locked from read to write: a claim (SKIP LOCKED) skips it meanwhile, or has committed before the read
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT " + COLUMNS + " FROM conduit_crons WHERE cron_id = $1 "
                        + "FOR UPDATE").execute(Tuple.of(cronId)).map(rows -> SqlValues.first(rows, PostgresCronStore::record))
                .chain(current -> current.isEmpty() ? Uni.createFrom().item(Optional.<Cron>empty())
                        : write(conn, change.apply(current.get()))));
    }

    private static Uni<Optional<Cron>> write(SqlConnection conn, Cron c) {
        return conn.preparedQuery("UPDATE conduit_crons SET assistant_id = $2, thread_id = $3, schedule = $4, timezone = $5, "
                        + "end_time = $6, enabled = $7, next_run_date = $8, on_run_completed = $9, payload = $10::text::jsonb, "
                        + "metadata = $11::text::jsonb, user_id = $12, owner_admin = $13, created_at = $14, updated_at = $15 "
                        + "WHERE cron_id = $1 RETURNING " + COLUMNS)
                .execute(args(c)).map(rows -> SqlValues.first(rows, PostgresCronStore::record));
    }

    @Override
    public Uni<Boolean> delete(String cronId) {
        return pool.preparedQuery("DELETE FROM conduit_crons WHERE cron_id = $1").execute(Tuple.of(cronId)).map(r -> r.rowCount() > 0);
    }

    @Override
    public Uni<Integer> deleteForThread(String threadId) {
        return pool.preparedQuery("DELETE FROM conduit_crons WHERE thread_id = $1").execute(Tuple.of(threadId)).map(r -> r.rowCount());
    }

    @Override
    public Uni<List<Cron>> search(Query q, SortOrder sort, int limit, int offset) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_crons c" + FILTER + " ORDER BY " + sort.sql("c", "cron_id")
                        + " LIMIT $6 OFFSET $7")
                .execute(filter(q).addValue(limit).addValue(offset)).map(rows -> SqlValues.all(rows, PostgresCronStore::record));
    }

    @Override
    public Uni<Long> count(Query q) {
        return pool.preparedQuery("SELECT count(*) FROM conduit_crons" + FILTER).execute(filter(q))
                .map(rows -> rows.iterator().next().getLong(0));
    }

    @Override
    public Uni<List<Cron>> claimDue(Instant now, int limit) {
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT " + COLUMNS + " FROM conduit_crons WHERE enabled "
                        + "AND next_run_date IS NOT NULL AND next_run_date <= $1 ORDER BY next_run_date LIMIT $2 FOR UPDATE SKIP LOCKED")
                .execute(Tuple.of(time(now), limit))
                .chain(rows -> {
                    List<Cron> stored = new ArrayList<>();
                    List<Cron> claimed = new ArrayList<>();
                    rows.forEach(r -> {
                        CronClaim claim = CronClaim.of(record(r), now); // per row: one bad row must not fail the rest
                        stored.add(claim.cron());
                        if (claim.runs()) {
                            claimed.add(claim.cron());
                        }
                    });
                    return advance(conn, stored).replaceWith(claimed);
                }));
    }

    private static Uni<Void> advance(SqlConnection conn, List<Cron> stored) {
        if (stored.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Tuple> batch = stored.stream().map(c -> Tuple.of(c.cronId(), time(c.nextRunDate()))).toList();
        return conn.preparedQuery("UPDATE conduit_crons SET next_run_date = $2 WHERE cron_id = $1").executeBatch(batch).replaceWithVoid();
    }

    private static Tuple filter(Query q) {
        return Tuple.tuple().addValue(q.assistantId()).addValue(q.threadId()).addValue(q.enabled()).addValue(jsonOrNull(q.metadata()))
                .addValue(q.userId());
    }

    private static Tuple args(Cron c) {
        return Tuple.tuple().addValue(c.cronId()).addValue(c.assistantId()).addValue(c.threadId()).addValue(c.schedule())
                .addValue(c.timezone()).addValue(time(c.endTime())).addValue(c.enabled()).addValue(time(c.nextRunDate()))
                .addValue(c.onRunCompleted()).addValue(json(c.payload())).addValue(json(c.metadata())).addValue(c.userId())
                .addValue(c.ownerAdmin()).addValue(time(c.createdAt())).addValue(time(c.updatedAt()));
    }

    private static Cron record(Row r) {
        return new Cron(r.getString("cron_id"), r.getString("assistant_id"), r.getString("thread_id"), r.getString("schedule"),
                r.getString("timezone"), instant(r, "end_time"), r.getBoolean("enabled"), instant(r, "next_run_date"),
                r.getString("on_run_completed"), map(r, "payload"), map(r, "metadata"), r.getString("user_id"),
                r.getBoolean("owner_admin"), instant(r, "created_at"), instant(r, "updated_at"));
    }
}
