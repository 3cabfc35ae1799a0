package io.conduit.persistence;

import static io.conduit.persistence.CheckpointColumns.FORMAT;
import static io.conduit.persistence.CheckpointColumns.encodeChannels;
import static io.conduit.persistence.CheckpointColumns.parseUuid;
import static io.conduit.persistence.CheckpointColumns.uuid;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointConflictException;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.persistence.CheckpointWriteMeters.Kind;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The writes a run makes as it goes: its checkpoints (the head advanced by compare-and-set in the same statement
 * that inserts the row, many threads' puts grouped in one statement), the pending writes of an unfinished step, and
 * the snapshots that keep reads short.
 */
final class CheckpointWrites {

    private final CheckpointStatements sql;
    private final CheckpointGroupCommit group;
    /** Where the sizes of writes go; null when nobody measures them (tests that make a store by hand). */
    private final CheckpointWriteMeters meters;

    CheckpointWrites(CheckpointStatements sql, CheckpointGroupCommit group, CheckpointWriteMeters meters) {
        this.sql = sql;
        this.group = group;
        this.meters = meters;
    }

    /**
     * Goes with the puts of other threads as one statement ({@link CheckpointGroupCommit}). After a lost connection
     * the put is repeated on its own, as any statement (the group may have committed: the repeat checks). When a
     * group's statement fails otherwise, nothing of it is stored and the failure may be another put's: the put is
     * made again on its own, for its own answer. A lone put's failure is its own, as it always was.
     */
    Uni<Void> put(Checkpoint cp, String expectedHead) {
        CheckpointPut put = CheckpointPut.of(cp, expectedHead);
        String what = "checkpoint " + cp.id() + " of thread " + cp.threadId();
        return group.put(put).onItemOrFailure().transformToUni((stored, failure) -> {
            if (failure == null) {
                return stored ? stored(put) : Uni.createFrom().failure(conflict(put));
            }
            Throwable cause = failure instanceof CheckpointGroupCommit.GroupFailed g ? g.getCause() : failure;
            if (ConnectionRetry.lostConnection(cause)) {
                return sql.retriedAfter(what, cause, attempt -> alone(put, attempt));
            }
            return cause == failure ? Uni.createFrom().failure(failure) : sql.retried(what, attempt -> alone(put, attempt));
        });
    }

    /** The put as its own statement, attempt {@code attempt} of it. */
    private Uni<Void> alone(CheckpointPut put, int attempt) {
        return sql.once(put.statement(), put.args()).flatMap(rows -> {
            if (rows.rowCount() > 0) {
                return stored(put);
            }
            if (attempt == 1) {
                return Uni.createFrom().failure(conflict(put));
            }
            // a repeat: the attempt whose connection was lost may have committed first, and then the head
            // moved past the expected one to this very checkpoint (ids are unique, so its row says so)
            return sql.once(CheckpointSql.STORED, Tuple.of(put.threadId(), put.ns(), put.id())).flatMap(found ->
                    found.size() == 0 ? Uni.createFrom().failure(conflict(put)) : stored(put));
        });
    }

    private Uni<Void> stored(CheckpointPut put) {
        sent(Kind.CHECKPOINT, put.size());
        return Uni.createFrom().voidItem();
    }

    private static CheckpointConflictException conflict(CheckpointPut put) {
        return new CheckpointConflictException(put.threadId(), put.ns(), put.expected() == null ? null : put.expected().toString());
    }

    Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        if (writes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        int n = writes.size();
        String[] tasks = new String[n];
        Integer[] idx = new Integer[n];
        String[] nodes = new String[n];
        String[] channels = new String[n];
        String[] values = new String[n];
        int size = 0;
        for (int i = 0; i < n; i++) {
            PendingWrite w = writes.get(i);
            tasks[i] = w.taskId();
            idx[i] = w.idx();
            nodes[i] = w.node();
            channels[i] = w.channel();
            values[i] = w.value().json();
            size += values[i].length();
        }
        int written = size;
        Tuple args = Tuple.of(threadId, ns, uuid(checkpointId)).addArrayOfString(tasks).addArrayOfInteger(idx)
                .addArrayOfString(nodes).addArrayOfString(channels).addArrayOfString(values);
        return sql.execute("pending writes of checkpoint " + checkpointId, CheckpointSql.PUT_WRITES, args)
                .invoke(() -> sent(Kind.PENDING_WRITES, written)).replaceWithVoid();
    }

    Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        UUID id = parseUuid(checkpointId);
        if (id == null) {
            return Uni.createFrom().voidItem();
        }
        return sql.execute("deletion of the pending writes of checkpoint " + checkpointId, CheckpointSql.DELETE_WRITES,
                Tuple.of(threadId, ns, id)).replaceWithVoid();
    }

    Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        String encoded = encodeChannels(values);
        Tuple args = Tuple.of(threadId, ns, uuid(checkpointId), FORMAT, encoded);
        return sql.execute("snapshot at checkpoint " + checkpointId, CheckpointSql.PUT_SNAPSHOT, args)
                .invoke(() -> sent(Kind.SNAPSHOT, length(encoded))).replaceWithVoid();
    }

    /** The size of what a write stored, measured on the text it sent: nothing is encoded a second time. */
    private void sent(Kind kind, int chars) {
        if (meters != null) {
            meters.sent(kind, chars);
        }
    }

    private static int length(String column) {
        return column == null ? 0 : column.length();
    }
}
