package io.conduit.runs.graphs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;
import java.util.Map;
import java.util.Set;

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

    /**
     * What a graph takes as input, checked before a run is created or a state written, so that a run never starts on
     * input its graph would fail on, and a thread never holds what its graph cannot use. Each check throws
     * {@link InvalidInputException} naming the field.
     */
    @FunctionalInterface
    public interface InputPolicy {

        /** Checks a run's input (decoded: the fields the state has; {@link #fields} has refused the others). */
        void check(Update input);

        /**
         * The fields of the state a run's input may set, for the error that names a field the state does not have
         * (refused rather than ignored, as LangGraph does: a graph run on input it did not read answers a question
         * nobody asked); {@link #check} refuses the state's other fields. Null: every field of the state.
         */
        default Set<String> fields() {
            return null;
        }

        /**
         * Checks values written to a thread's state outside a run's input ({@code POST /threads/{id}/state}, a new
         * thread's {@code supersteps}, a resume's {@code command.update}); {@code field} names them in errors. Any field
         * of the state may be written there; by default nothing is refused.
         */
        default void checkUpdate(String field, Update values) {
        }

        /** Refuses a write of {@code input} to a field outside {@code fields}, naming it and the fields there are. */
        static void only(Set<String> fields, Update input) {
            for (Update.Write w : input.writes()) {
                if (!fields.contains(w.channel().name())) {
                    throw notAnInput(w.channel().name(), fields);
                }
            }
        }

        /** The refusal of a run's input field {@code name}, which is not one of {@code fields}. */
        static InvalidInputException notAnInput(String name, Set<String> fields) {
            return new InvalidInputException("input." + name, "is not an input of this graph; a run's input sets "
                    + String.join(", ", new java.util.TreeSet<>(fields)));
        }
    }
}
