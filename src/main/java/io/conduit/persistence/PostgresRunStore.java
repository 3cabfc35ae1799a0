package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.json;
import static io.conduit.persistence.SqlValues.map;
import static io.conduit.persistence.SqlValues.time;

import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.Runs;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.Worker;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Run records in PostgreSQL ({@code conduit_runs}, V3), through the reactive client. One running run per thread is
 * the partial unique index {@code conduit_runs_one_running}: workers on any replica claim without coordinating, and
 * a claim that loses a race to another worker on the same thread fails on the index instead of running twice.
 */
public final class PostgresRunStore implements RunStore {

    private static final String COLUMNS = "run_id, thread_id, assistant_id, status, metadata::text AS metadata, multitask_strategy, "
            + "kwargs::text AS kwargs, created_at, updated_at, not_before, worker_id";

    /** Typed: in a SELECT list, parameters would otherwise be taken as text. */
    private static final String VALUES = "SELECT $1::text, $2::text, $3::text, 'pending', $4::text::jsonb, $5::text, $6::text::jsonb, "
            + "$7::timestamptz, $8::timestamptz, $9::timestamptz";
    private static final String INSERT = "INSERT INTO conduit_runs (run_id, thread_id, assistant_id, status, metadata, "
            + "multitask_strategy, kwargs, created_at, updated_at, not_before) ";

    /** The insert of a reject run: nothing is inserted while the thread has a run in flight. */
    private static final String INSERT_IF_IDLE = INSERT + VALUES + " WHERE NOT EXISTS (SELECT 1 FROM conduit_runs "
            + "WHERE thread_id = $2 AND status IN ('pending', 'running')) RETURNING " + COLUMNS;

    /**
     * The oldest claimable run, locked (runs other workers are claiming are skipped, not waited for), becomes running.
     * Two workers may still pick runs of one thread at once (neither sees the other's uncommitted claim): the second
     * update then fails on the unique index.
     *
     * <p>Claimable: a due pending run that is its thread's oldest and whose thread runs nothing. Both checks are
     * scalar subqueries, each one probe of a thread's index per candidate, not {@code NOT EXISTS}: the planner makes
     * those anti-joins shaped by its statistics, and the plan a pooled connection caches for this statement was made
     * when the table was small. With a thousand runs pending that plan compared every candidate with every running run
     * (160 ms a claim, runs starting at five a second); the subqueries keep each candidate's cost to two probes.
     */
    private static final String CLAIM = "WITH picked AS MATERIALIZED (SELECT r.run_id AS picked_id FROM conduit_runs r "
            + "WHERE r.status = 'pending' AND r.not_before <= $2 "
            // the thread's oldest due run only: SKIP LOCKED would let a second claimer take the next one while the first
            // holds the oldest, and when the first lost the race for the thread, its runs ran out of order
            + "AND r.run_id = (SELECT o.run_id FROM conduit_runs o WHERE o.thread_id = r.thread_id AND o.status = 'pending' "
            + "AND o.not_before <= $2 ORDER BY o.created_at, o.run_id LIMIT 1) "
            + "AND (SELECT x.run_id FROM conduit_runs x WHERE x.thread_id = r.thread_id AND x.status = 'running') IS NULL "
            // picked once, in a CTE: as an IN (...) the planner may run the locking subquery again per row it updates
            + "ORDER BY r.created_at, r.run_id LIMIT $3 FOR UPDATE SKIP LOCKED) "
            + "UPDATE conduit_runs SET status = 'running', worker_id = $1, updated_at = $2 FROM picked "
            + "WHERE run_id = picked_id AND status = 'pending' RETURNING " + COLUMNS;

    private final Pool pool;

    public PostgresRunStore(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Run> create(Run given) {
        Run run;
        try {
            run = Runs.asCreated(given);
        } catch (NullPointerException e) {
            return Uni.createFrom().failure(e);
        }
        Tuple args = Tuple.tuple().addValue(run.runId()).addValue(run.threadId()).addValue(run.assistantId())
                .addValue(json(run.metadata())).addValue(run.multitaskStrategy().wire()).addValue(json(RunSpecJson.toKwargs(run.spec())))
                .addValue(time(run.createdAt())).addValue(time(run.updatedAt())).addValue(time(run.notBefore()));
        if (run.multitaskStrategy() != MultitaskStrategy.REJECT) {
            return pool.preparedQuery(INSERT + VALUES + " RETURNING " + COLUMNS).execute(args).map(rows -> record(rows.iterator().next()))
                    .onFailure(SqlValues::isUniqueViolation).transform(e -> Runs.exists(run.runId()));
        }
        // A per-thread lock until commit, then the guarded insert in a statement of its own: its snapshot is taken
        // after the lock, so it sees a run a concurrent reject committed. Without the lock both could see none.
        return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1))").execute(Tuple.of(run.threadId()))
                .flatMap(locked -> conn.preparedQuery(INSERT_IF_IDLE).execute(args))
                .map(rows -> {
                    if (rows.rowCount() == 0) {
                        throw new ThreadBusyException(run.threadId());
                    }
                    return record(rows.iterator().next());
                })).onFailure(SqlValues::isUniqueViolation).transform(e -> Runs.exists(run.runId()));
    }

    @Override
    public Uni<List<Run>> claim(String workerId, Instant now, int limit) {
        // a lost race is "nothing this time"; one retry usually finds runs of other threads
        return claimOnce(workerId, now, limit).onFailure(SqlValues::isUniqueViolation).recoverWithUni(() -> claimOnce(workerId, now, limit))
                .onFailure(SqlValues::isUniqueViolation).recoverWithItem(List.of());
    }

    private Uni<List<Run>> claimOnce(String workerId, Instant now, int limit) {
        return pool.preparedQuery(CLAIM).execute(Tuple.of(workerId, time(now), limit)).map(rows -> all(rows).stream()
                .sorted(Comparator.comparing(Run::createdAt).thenComparing(Run::runId)).toList());
    }

    @Override
    public Uni<Optional<Run>> get(String runId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_runs WHERE run_id = $1").execute(Tuple.of(runId))
                .map(PostgresRunStore::first);
    }

    @Override
    public Uni<List<Run>> listByThread(String threadId, int limit, int offset, RunStatus status) {
        Tuple args = Tuple.tuple().addValue(threadId).addValue(status == null ? null : status.wire()).addValue(limit).addValue(offset);
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_runs WHERE thread_id = $1 AND ($2::text IS NULL OR status = $2) "
                + "ORDER BY created_at DESC, run_id DESC LIMIT $3 OFFSET $4").execute(args).map(PostgresRunStore::all);
    }

    @Override
    public Uni<List<Run>> inflight(String threadId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM conduit_runs WHERE thread_id = $1 AND status IN ('pending', 'running') "
                + "ORDER BY created_at, run_id").execute(Tuple.of(threadId)).map(PostgresRunStore::all);
    }

    @Override
    public Uni<Integer> countInflight(String owner) {
        // one count per status, so that each reads its partial index (pending, running): runs in flight are few
        String mine = " AND ($1::text IS NULL OR metadata->>'" + io.conduit.auth.Principal.OWNER + "' = $1)";
        return pool.preparedQuery("SELECT (SELECT count(*) FROM conduit_runs WHERE status = 'pending'" + mine
                        + ") + (SELECT count(*) FROM conduit_runs WHERE status = 'running'" + mine + ") AS n")
                .execute(Tuple.tuple().addValue(owner)).map(rows -> (int) rows.iterator().next().getLong("n").longValue());
    }

    @Override
    public Uni<Boolean> finish(String runId, String workerId, RunStatus status, Instant at) {
        return pool.preparedQuery("UPDATE conduit_runs SET status = $3, updated_at = $4 WHERE run_id = $1 AND status = 'running' AND worker_id = $2")
                .execute(Tuple.of(runId, workerId, status.wire(), time(at))).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Boolean> release(String runId, String workerId, Instant at) {
        return pool.preparedQuery("UPDATE conduit_runs SET status = 'pending', worker_id = NULL, updated_at = $3 "
                        + "WHERE run_id = $1 AND status = 'running' AND worker_id = $2")
                .execute(Tuple.of(runId, workerId, time(at))).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Boolean> cancelPending(String runId, Instant at) {
        return pool.preparedQuery("UPDATE conduit_runs SET status = 'interrupted', updated_at = $2 WHERE run_id = $1 AND status = 'pending'")
                .execute(Tuple.of(runId, time(at))).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Boolean> delete(String runId) {
        return pool.preparedQuery("DELETE FROM conduit_runs WHERE run_id = $1").execute(Tuple.of(runId)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return pool.preparedQuery("DELETE FROM conduit_runs WHERE thread_id = $1").execute(Tuple.of(threadId)).replaceWithVoid();
    }

    @Override
    public Uni<List<String>> renew(String workerId, Collection<String> runIds, Instant at) {
        return pool.preparedQuery("UPDATE conduit_runs SET updated_at = $2 WHERE status = 'running' AND worker_id = $1 AND run_id = ANY($3) "
                        + "RETURNING run_id")
                .execute(Tuple.of(workerId, time(at), runIds.toArray(String[]::new))).map(rows -> SqlValues.all(rows, r -> r.getString(0)));
    }

    @Override
    public Uni<List<Run>> requeueOrphans(Worker live, Collection<String> held, Instant staleBefore, Instant at) {
        // an earlier incarnation of this replica is gone however recently it renewed; any run once its lease lapsed
        return pool.preparedQuery("UPDATE conduit_runs SET status = 'pending', worker_id = NULL, updated_at = $2 "
                        + "WHERE status = 'running' AND NOT (run_id = ANY($5)) "
                        + "AND (updated_at < $3 OR (worker_id <> $1 AND starts_with(worker_id, $4))) RETURNING " + COLUMNS)
                .execute(Tuple.of(live.id(), time(at), time(staleBefore), live.prefix(), held.toArray(String[]::new)))
                .map(rows -> all(rows).stream().sorted(Runs.OLDEST_FIRST).toList());
    }

    private static Optional<Run> first(RowSet<Row> rows) {
        return SqlValues.first(rows, PostgresRunStore::record);
    }

    private static List<Run> all(RowSet<Row> rows) {
        return SqlValues.all(rows, PostgresRunStore::record);
    }

    private static Run record(Row r) {
        return new Run(r.getString("run_id"), r.getString("thread_id"), r.getString("assistant_id"), RunStatus.of(r.getString("status")),
                map(r, "metadata"), MultitaskStrategy.of(r.getString("multitask_strategy")), RunSpecJson.fromKwargs(map(r, "kwargs")),
                instant(r, "created_at"), instant(r, "updated_at"), instant(r, "not_before"), r.getString("worker_id"));
    }
}
