package io.conduit.graph;

import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import java.util.Set;

/**
 * How a graph is compiled.
 *
 * @param recursionLimit  supersteps one run may take before it fails (LangGraph's default is 25)
 * @param compactionSteps a snapshot is stored once a checkpoint is this many steps, and at least twice as many
 *                        steps as the state has items, from the last one: reads stay bounded and snapshot bytes
 *                        amortize to a constant per step
 * @param stateCacheSize  threads whose newest state is kept in memory
 */
public record GraphOptions(Checkpointer checkpointer, int recursionLimit, Set<String> interruptBefore,
                           Set<String> interruptAfter, int compactionSteps, int stateCacheSize) {

    public static GraphOptions defaults() {
        return new GraphOptions(new InMemoryCheckpointer(), 25, Set.of(), Set.of(), 256, 10_000);
    }

    public static GraphOptions with(Checkpointer checkpointer) {
        return defaults().checkpointer(checkpointer);
    }

    public GraphOptions checkpointer(Checkpointer c) {
        return new GraphOptions(c, recursionLimit, interruptBefore, interruptAfter, compactionSteps, stateCacheSize);
    }

    public GraphOptions recursionLimit(int limit) {
        return new GraphOptions(checkpointer, limit, interruptBefore, interruptAfter, compactionSteps, stateCacheSize);
    }

    public GraphOptions interruptBefore(String... nodes) {
        return new GraphOptions(checkpointer, recursionLimit, Set.of(nodes), interruptAfter, compactionSteps, stateCacheSize);
    }

    public GraphOptions interruptAfter(String... nodes) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, Set.of(nodes), compactionSteps, stateCacheSize);
    }

    public GraphOptions compactionSteps(int steps) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, interruptAfter, steps, stateCacheSize);
    }

    public GraphOptions stateCacheSize(int size) {
        return new GraphOptions(checkpointer, recursionLimit, interruptBefore, interruptAfter, compactionSteps, size);
    }
}
