package io.conduit.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The rows of {@link CheckpointSql}'s reads as the checkpointer's records. Rows of an unknown {@code format} or
 * {@code source} are refused rather than misread.
 */
final class CheckpointRows {

    private CheckpointRows() {
    }

    /** A checkpoint row followed by its pending writes ({@code HEAD}, {@code GET}), or empty. */
    static Optional<Head> headOf(RowSet<Row> rows, String threadId, String ns) {
        Iterator<Row> it = rows.iterator();
        if (!it.hasNext()) {
            return Optional.empty();
        }
        Row r = it.next();
        return Optional.of(new Head(checkpointOf(r, threadId, ns), pendingWrites(r.getString(12), threadId)));
    }

    /** The rows of {@code CHAIN}, oldest first: the snapshot they start from and the checkpoints since. */
    static Optional<CheckpointChain> chainOf(RowSet<Row> rows, String threadId, String ns) {
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Map<String, Stored> base = Map.of();
        List<Checkpoint> since = new ArrayList<>(rows.size());
        for (Row r : rows) {
            String snapshot = r.getString(12);
            if (snapshot != null) {
                checkFormat(r.getShort(13), threadId, "snapshot at " + r.getUUID(0));
                base = CheckpointColumns.decodeChannels(snapshot, threadId);
                since.clear(); // rows come oldest first: the snapshot row starts the chain
            } else {
                since.add(checkpointOf(r, threadId, ns));
            }
        }
        Checkpoint target = since.isEmpty() ? checkpointOf(last(rows), threadId, ns) : since.get(since.size() - 1);
        return Optional.of(new CheckpointChain(target, base, since));
    }

    static Checkpoint checkpointOf(Row r, String threadId, String ns) {
        UUID id = r.getUUID(0);
        checkFormat(r.getShort(4), threadId, "checkpoint " + id);
        UUID parent = r.getUUID(1);
        UUID run = r.getUUID(6);
        String metadata = r.getString(11);
        return new Checkpoint(threadId, ns, id.toString(), parent == null ? null : parent.toString(), r.getInteger(2),
                source(r.getString(3), threadId, id), run == null ? null : run.toString(),
                CheckpointColumns.decodeChannels(r.getString(9), threadId), CheckpointColumns.decodeChannels(r.getString(10), threadId),
                CheckpointColumns.decodeNext(r.getString(7), r.getString(8), threadId),
                metadata == null ? Map.of() : CheckpointColumns.decodeMetadata(metadata, threadId),
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
        if (format != CheckpointColumns.FORMAT) {
            throw new IllegalStateException("thread " + threadId + ": " + what + " is stored in format " + format
                    + ", which this version cannot read (it reads format " + CheckpointColumns.FORMAT + ")");
        }
    }

    private static List<PendingWrite> pendingWrites(String json, String threadId) {
        if (json == null) {
            return List.of();
        }
        JsonNode array = CheckpointColumns.tree(json, threadId, "pending writes");
        List<PendingWrite> out = new ArrayList<>(array.size());
        for (JsonNode w : array) {
            out.add(new PendingWrite(w.get(0).asText(), w.get(1).asText(), w.get(2).asInt(), w.get(3).asText(), Stored.json(w.get(4).toString())));
        }
        return out;
    }

    private static Row last(RowSet<Row> rows) {
        Row last = null;
        for (Row r : rows) {
            last = r;
        }
        return last;
    }
}
