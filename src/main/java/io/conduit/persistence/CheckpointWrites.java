package io.conduit.persistence;

import static io.conduit.persistence.CheckpointColumns.FORMAT;
import static io.conduit.persistence.CheckpointColumns.encodeChannels;
import static io.conduit.persistence.CheckpointColumns.json;
import static io.conduit.persistence.CheckpointColumns.nextInputs;
import static io.conduit.persistence.CheckpointColumns.nextNodes;
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
 * that inserts the row), the pending writes of an unfinished step, and the snapshots that keep reads short.
 */
final class CheckpointWrites {

    private final CheckpointStatements sql;
    /** Where the sizes of writes go; null when nobody measures them (tests that make a store by hand). */
    private final CheckpointWriteMeters meters;

    CheckpointWrites(CheckpointStatements sql, CheckpointWriteMeters meters) {
        this.sql = sql;
        this.meters = meters;
    }

    Uni<Void> put(Checkpoint cp, String expectedHead) {
        String inputs = nextInputs(cp.next());
        String values = encodeChannels(cp.values());
        String deltas = encodeChannels(cp.deltas());
        String metadata = cp.metadata().isEmpty() ? null : json(cp.metadata());
        int size = length(inputs) + length(values) + length(deltas) + length(metadata);
        Tuple args = Tuple.tuple()
                .addValue(cp.threadId()).addValue(cp.ns()).addValue(uuid(cp.id()))
                .addValue(expectedHead == null ? null : uuid(expectedHead))
                .addValue(cp.parentId() == null ? null : uuid(cp.parentId()))
                .addValue(cp.step()).addValue(cp.source().wire()).addValue(FORMAT).addValue(cp.chainLength())
                .addValue(cp.runId() == null ? null : uuid(cp.runId()))
                .addValue(cp.next().isEmpty() ? null : nextNodes(cp.next()))
                .addValue(inputs)
                .addValue(values)
                .addValue(deltas)
                .addValue(metadata);
        String statement = expectedHead == null ? CheckpointSql.PUT_FIRST : CheckpointSql.PUT_NEXT;
        return sql.retried("checkpoint " + cp.id() + " of thread " + cp.threadId(), attempt -> sql.once(statement, args)
                .flatMap(rows -> {
                    if (rows.rowCount() > 0) {
                        sent(Kind.CHECKPOINT, size);
                        return Uni.createFrom().voidItem();
                    }
                    CheckpointConflictException conflict = new CheckpointConflictException(cp.threadId(), cp.ns(), expectedHead);
                    if (attempt == 1) {
                        return Uni.createFrom().failure(conflict);
                    }
                    // a repeat: the attempt whose connection was lost may have committed first, and then the head
                    // moved past expectedHead to this very checkpoint (ids are unique, so its row says so)
                    return sql.once(CheckpointSql.STORED, Tuple.of(cp.threadId(), cp.ns(), uuid(cp.id()))).map(found -> {
                        if (found.size() == 0) {
                            throw conflict;
                        }
                        sent(Kind.CHECKPOINT, size);
                        return null;
                    });
                }));
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
