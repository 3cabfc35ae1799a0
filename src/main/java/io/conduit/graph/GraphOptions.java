package io.conduit.graph;

import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import java.util.Set;

/**
 * How a graph is compiled.
 *
 * @param recursionLimit  supersteps one run may take before it fails (LangGraph's default is 25)
 * @param snapshotEvery   the full state is stored every this many checkpoints of a lineage (off the run's critical
 *                        path), so a cold read replays at most that many steps whatever the thread's length: the
 *                        same cost at turn 400 as at turn 20. Snapshot bytes per step grow with the state, divided
 *                        by this number
 * @param stateCacheSize  threads whose newest state is kept in memory
 */
public record GraphOptions(Checkpointer checkpointer, int recursionLimit, Set<String> interruptBefore,
                           Set<String> interruptAfter, int snapshotEvery, int stateCacheSize) {

    public static GraphOptions defaults() {
        return new GraphOptions(new InMemoryCheckpointer(), 25, Set.of(), Set.of(), 200, 10_000);
    }

    public static GraphOptions with(Checkpointer checkpointer) {
        return defaults().checkpointer(checkpointer);
    }

    public GraphOptions checkpointer(Checkpointer c) {
        return new GraphOptions(c, recursionLimit, interruptBefore, interruptAfter, snapshotEvery, stateCacheSize);
    }

    public GraphOptions recursionLimit(int limit) {
        return new GraphOptions(checkpointer, limit, interruptBefore, interruptAfter, snapshotEvery, stateCacheSize);
    }

    public GraphOptions interruptBefore(String... nodes) {
        return new GraphOptions(checkpointer, recursionLimit, Set.of(nodes), interruptAfter, snapshotEvery, stateCacheSize);
    }

    public GraphOptions interruptAfter(String... nodes) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, Set.of(nodes), snapshotEvery, stateCacheSize);
    }

    public GraphOptions snapshotEvery(int steps) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, interruptAfter, steps, stateCacheSize);
    }

    public GraphOptions stateCacheSize(int size) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, interruptAfter, snapshotEvery, size);
    }
}
