package io.conduit.persistence;

import static io.conduit.persistence.CheckpointColumns.parseUuid;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.UUID;

/**
 * What removes history: pruning before a snapshot, rolling a run back, deleting a thread. Each is one statement,
 * so each is all or nothing.
 */
final class CheckpointDeletes {

    private final CheckpointStatements sql;

    CheckpointDeletes(CheckpointStatements sql) {
        this.sql = sql;
    }

    Uni<Long> prune(String threadId, String ns, String keepFrom) {
        UUID keep = parseUuid(keepFrom);
        if (keep == null) {
            return Uni.createFrom().failure(new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state"));
        }
        return sql.execute("prune of thread " + threadId, CheckpointSql.PRUNE, Tuple.of(threadId, ns, keep)).map(rows -> {
            Row r = rows.iterator().next();
            if (r.getLong("found") == 0) {
                throw new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state");
            }
            return r.getLong("deleted");
        });
    }

    Uni<Long> deleteRun(String threadId, String runId) {
        UUID run = parseUuid(runId);
        if (run == null) {
            return Uni.createFrom().item(0L); // run ids are UUIDs: no checkpoint carries this one
        }
        return sql.execute("rollback of run " + runId, CheckpointSql.DELETE_RUN, Tuple.of(threadId, run)).map(rows -> {
            Row r = rows.iterator().next();
            if (r.getLong("orphans") > 0) {
                throw new IllegalStateException("thread " + threadId + ": checkpoint " + r.getString("example")
                        + " of another run builds on run " + runId + "; roll that back first");
            }
            return r.getLong("deleted");
        });
    }

    Uni<Void> deleteThread(String threadId) {
        return sql.execute("deletion of thread " + threadId, CheckpointSql.DELETE_THREAD, Tuple.of(threadId)).replaceWithVoid();
    }
}
