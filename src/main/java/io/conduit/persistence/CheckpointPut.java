package io.conduit.persistence;

import static io.conduit.persistence.CheckpointColumns.FORMAT;
import static io.conduit.persistence.CheckpointColumns.encodeChannels;
import static io.conduit.persistence.CheckpointColumns.json;
import static io.conduit.persistence.CheckpointColumns.nextInputs;
import static io.conduit.persistence.CheckpointColumns.nextNodes;
import static io.conduit.persistence.CheckpointColumns.uuid;

import io.conduit.checkpoint.Checkpoint;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.List;
import java.util.UUID;

/**
 * One checkpoint put as the columns it sends, encoded once: as the parameters of its own statement
 * ({@link CheckpointSql#PUT_FIRST}, {@link CheckpointSql#PUT_NEXT}) or as one row of a group
 * ({@link CheckpointSql#PUT_MANY}, {@link #group}).
 *
 * @param expected the head the put expects, null when it starts the namespace
 * @param size     characters of JSON it stores, for {@link CheckpointWriteMeters#sent}
 */
record CheckpointPut(String threadId, String ns, UUID id, UUID expected, UUID parent, int step, String source,
                     int chainLength, UUID runId, String next, String inputs, String values, String deltas,
                     String metadata, int size) {

    static CheckpointPut of(Checkpoint cp, String expectedHead) {
        String inputs = nextInputs(cp.next());
        String values = encodeChannels(cp.values());
        String deltas = encodeChannels(cp.deltas());
        String metadata = cp.metadata().isEmpty() ? null : json(cp.metadata());
        return new CheckpointPut(cp.threadId(), cp.ns(), uuid(cp.id()), expectedHead == null ? null : uuid(expectedHead),
                cp.parentId() == null ? null : uuid(cp.parentId()), cp.step(), cp.source().wire(), cp.chainLength(),
                cp.runId() == null ? null : uuid(cp.runId()), cp.next().isEmpty() ? null : nextNodes(cp.next()),
                inputs, values, deltas, metadata, length(inputs) + length(values) + length(deltas) + length(metadata));
    }

    /** The thread and namespace whose head the put moves: a group holds at most one put per key. */
    Key key() {
        return new Key(threadId, ns);
    }

    record Key(String threadId, String ns) {
    }

    /** Its own statement: {@code PUT_FIRST} or {@code PUT_NEXT}. */
    String statement() {
        return expected == null ? CheckpointSql.PUT_FIRST : CheckpointSql.PUT_NEXT;
    }

    /** The parameters of {@link #statement}. */
    Tuple args() {
        return Tuple.tuple()
                .addValue(threadId).addValue(ns).addValue(id).addValue(expected).addValue(parent)
                .addValue(step).addValue(source).addValue(FORMAT).addValue(chainLength).addValue(runId)
                .addValue(next).addValue(inputs).addValue(values).addValue(deltas).addValue(metadata);
    }

    /** The parameters of {@link CheckpointSql#PUT_MANY}: one array per column, the puts in {@code puts} order. */
    static Tuple group(List<CheckpointPut> puts) {
        int n = puts.size();
        String[] threads = new String[n];
        String[] nss = new String[n];
        UUID[] ids = new UUID[n];
        UUID[] expecteds = new UUID[n];
        UUID[] parents = new UUID[n];
        Integer[] steps = new Integer[n];
        String[] sources = new String[n];
        Integer[] chains = new Integer[n];
        UUID[] runs = new UUID[n];
        String[] nexts = new String[n];
        String[] inputss = new String[n];
        String[] valuess = new String[n];
        String[] deltass = new String[n];
        String[] metadatas = new String[n];
        for (int i = 0; i < n; i++) {
            CheckpointPut p = puts.get(i);
            threads[i] = p.threadId;
            nss[i] = p.ns;
            ids[i] = p.id;
            expecteds[i] = p.expected;
            parents[i] = p.parent;
            steps[i] = p.step;
            sources[i] = p.source;
            chains[i] = p.chainLength;
            runs[i] = p.runId;
            nexts[i] = p.next;
            inputss[i] = p.inputs;
            valuess[i] = p.values;
            deltass[i] = p.deltas;
            metadatas[i] = p.metadata;
        }
        return Tuple.tuple().addArrayOfString(threads).addArrayOfString(nss).addArrayOfUUID(ids).addArrayOfUUID(expecteds)
                .addArrayOfUUID(parents).addArrayOfInteger(steps).addArrayOfString(sources).addValue(FORMAT)
                .addArrayOfInteger(chains).addArrayOfUUID(runs).addArrayOfString(nexts).addArrayOfString(inputss)
                .addArrayOfString(valuess).addArrayOfString(deltass).addArrayOfString(metadatas);
    }

    private static int length(String column) {
        return column == null ? 0 : column.length();
    }
}
