package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.graph.StepAlgebra.Folded;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;

/**
 * Where a run stands: the last checkpoint, the state it holds, what its unfinished step recorded, and the head the
 * next put expects. A checkpoint becomes the position as it is queued for the store ({@link #persist}); every
 * write of the run goes through the run's {@link WriteQueue}, so none is reordered.
 */
final class RunPosition {

    private final CompiledGraph graph;
    private final Checkpointer store;
    private final StateLoader loader;
    private final WriteQueue writes;
    private final StepAlgebra.Origin origin;

    private Checkpoint checkpoint;
    private State state;
    private Map<String, TaskRecord> records = Map.of();
    private String expectedHead;
    private boolean checkpointHasSnapshot;
    /** Whether the store holds pending writes against {@code checkpoint}, to delete once the step after it is stored. */
    private boolean checkpointHasWrites;

    RunPosition(CompiledGraph graph, Checkpointer store, StateLoader loader, WriteQueue writes, StepAlgebra.Origin origin) {
        this.graph = graph;
        this.store = store;
        this.loader = loader;
        this.writes = writes;
        this.origin = origin;
    }

    /** The run starts on a thread (or namespace) that has no checkpoint yet. */
    void startEmpty(State initial) {
        state = initial;
    }

    /** The run starts at {@code head}, with what its unfinished step recorded; its state is {@link #loaded} next. */
    void startAt(Head head) {
        checkpoint = head.checkpoint();
        records = TaskRecord.decode(head.pendingWrites(), graph.schema(), origin.threadId());
        checkpointHasWrites = !head.pendingWrites().isEmpty();
    }

    void loaded(State s) {
        state = s;
    }

    /** The thread's head when the run started: the first put's compare-and-set expects it. */
    void expectHead(String headId) {
        expectedHead = headId;
    }

    Checkpoint checkpoint() {
        return checkpoint;
    }

    /** The step of the run's checkpoint, -1 before the first. */
    int step() {
        return checkpoint == null ? -1 : checkpoint.step();
    }

    State state() {
        return state;
    }

    Map<String, TaskRecord> records() {
        return records;
    }

    void records(Map<String, TaskRecord> r) {
        records = r;
    }

    boolean hasWrites() {
        return checkpointHasWrites;
    }

    /** The store holds (or is about to hold) pending writes against the run's checkpoint. */
    void markWrites() {
        checkpointHasWrites = true;
    }

    /** Queues pending writes against checkpoint {@code checkpointId} of the run's thread and namespace. */
    Uni<Void> putWrites(String checkpointId, List<PendingWrite> w) {
        return writes.submit(() -> store.putWrites(origin.threadId(), origin.ns(), checkpointId, w));
    }

    /** Queues the deletion of the pending writes against checkpoint {@code checkpointId}. */
    void deleteWrites(String checkpointId) {
        writes.submit(() -> store.deleteWrites(origin.threadId(), origin.ns(), checkpointId));
    }

    /** The checkpoint of a step built on the run's current one; the folded state becomes the run's state. */
    Checkpoint checkpointFor(Folded folded, List<TaskSpec> next, CheckpointSource source, int step) {
        String id = TimeOrderedIds.next();
        state = folded.state();
        return StepAlgebra.checkpoint(origin, id, checkpoint, checkpointHasSnapshot, folded, next, source, step, TimeOrderedIds.millisOf(id));
    }

    /** Queues the checkpoint (waits for it in SYNC mode) and makes it the run's position. */
    Uni<Void> persist(Checkpoint cp) {
        String expected = expectedHead;
        expectedHead = cp.id();
        checkpoint = cp;
        checkpointHasSnapshot = false;
        checkpointHasWrites = false;
        loader.remember(cp, state);
        Uni<Void> put = writes.submit(() -> store.put(cp, expected));
        if (StepAlgebra.snapshotDue(cp, graph.options().snapshotEvery())) {
            // queued behind the checkpoint, and not waited for: a snapshot only makes later reads cheaper
            Map<String, Stored> snapshot = StateLoader.snapshotOf(state);
            writes.submit(() -> store.putSnapshot(origin.threadId(), origin.ns(), cp.id(), snapshot));
            checkpointHasSnapshot = true;
        }
        return put;
    }
}
