package io.conduit.runs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Update;

/**
 * A graph the service serves: its id (an assistant's {@code graph_id}), the compiled graph, and the check its input
 * must pass before anything is written (so bad input never creates a run, a thread or a checkpoint).
 */
public record RegisteredGraph(String graphId, String description, CompiledGraph graph, InputPolicy policy) {

    /** Checks a run's input before the run is created; throws {@link InvalidInputException}. */
    @FunctionalInterface
    public interface InputPolicy {
        void check(Update input);
    }
}
