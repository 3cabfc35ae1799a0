package io.conduit.runs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Update;
import java.util.Map;

/**
 * A graph the service serves: its id (an assistant's {@code graph_id}), the compiled graph, the check its input must
 * pass before anything is written (so bad input never creates a run, a thread or a checkpoint), and the settings an
 * assistant or a run may override ({@code config.configurable}), as a JSON schema and a check.
 */
public record RegisteredGraph(String graphId, String description, CompiledGraph graph, InputPolicy policy,
                              Map<String, Object> configSchema, ConfigPolicy configPolicy) {

    /** Checks an assistant's or a run's {@code config.configurable}: the problem, or null when it is fine. */
    @FunctionalInterface
    public interface ConfigPolicy {
        String problem(Map<String, Object> configurable);
    }

    /** Checks a run's input before the run is created; throws {@link InvalidInputException}. */
    @FunctionalInterface
    public interface InputPolicy {
        void check(Update input);
    }
}
