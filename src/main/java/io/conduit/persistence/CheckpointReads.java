package io.conduit.persistence;

import static io.conduit.persistence.CheckpointColumns.parseUuid;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.Head;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The reads: a thread's head or a given checkpoint with its pending writes, the chain that rebuilds a state (from
 * the nearest snapshot, so a read replays at most {@code snapshotEvery} checkpoints), and the history. An id that is
 * no UUID names no row: it reads as nothing, not as an error.
 */
final class CheckpointReads {

    private final CheckpointStatements sql;

    CheckpointReads(CheckpointStatements sql) {
        this.sql = sql;
    }

    Uni<Optional<Head>> head(String threadId, String ns) {
        return sql.execute("head of thread " + threadId, CheckpointSql.HEAD, Tuple.of(threadId, ns))
                .map(rows -> CheckpointRows.headOf(rows, threadId, ns));
    }

    Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return sql.execute("checkpoint " + checkpointId, CheckpointSql.GET, Tuple.of(threadId, ns, id))
                .map(rows -> CheckpointRows.headOf(rows, threadId, ns));
    }

    Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().item(Optional.empty());
        }
        return sql.execute("state of checkpoint " + checkpointId, CheckpointSql.CHAIN, Tuple.of(threadId, ns, id))
                .map(rows -> CheckpointRows.chainOf(rows, threadId, ns));
    }

    Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        UUID b = before == null ? null : parseUuid(before);
        if (before != null && b == null) {
            return Uni.createFrom().item(List.of());
        }
        Tuple args = Tuple.tuple().addValue(threadId).addValue(ns).addValue(b).addValue(limit);
        return sql.execute("history of thread " + threadId, CheckpointSql.LIST, args).map(rows -> {
            List<Checkpoint> out = new ArrayList<>(rows.size());
            for (Row r : rows) {
                out.add(CheckpointRows.checkpointOf(r, threadId, ns));
            }
            return out;
        });
    }
}
