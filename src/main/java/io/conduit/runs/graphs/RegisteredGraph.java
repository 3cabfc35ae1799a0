package io.conduit.runs.graphs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A graph the service serves: its id (an assistant's {@code graph_id}), the compiled graph, the check its input must
 * pass before anything is written (so bad input never creates a run, a thread or a checkpoint), and the settings an
 * assistant or a run may override ({@code config.configurable}), as a JSON schema and a check.
 *
 * <p>The compiled graph may be given as a {@link Supplier}: it is then built at its first use, or by
 * {@link GraphWarmUp} just after start. Building every blueprint's graph at start cost a sixth of the start-up's main
 * thread; listing assistants needs only the id, description and schema.
 */
public final class RegisteredGraph {

    private final String graphId;
    private final String description;
    private final Supplier<CompiledGraph> build;
    private final AtomicReference<CompiledGraph> graph = new AtomicReference<>();
    private final InputPolicy policy;
    private final Map<String, Object> configSchema;
    private final ConfigPolicy configPolicy;

    public RegisteredGraph(String graphId, String description, CompiledGraph graph, InputPolicy policy,
                           Map<String, Object> configSchema, ConfigPolicy configPolicy) {
        this(graphId, description, () -> graph, policy, configSchema, configPolicy);
        Objects.requireNonNull(graph, "graph");
    }

    public RegisteredGraph(String graphId, String description, Supplier<CompiledGraph> build, InputPolicy policy,
                           Map<String, Object> configSchema, ConfigPolicy configPolicy) {
        this.graphId = graphId;
        this.description = description;
        this.build = build;
        this.policy = policy;
        this.configSchema = configSchema;
        this.configPolicy = configPolicy;
    }

    public String graphId() {
        return graphId;
    }

    public String description() {
        return description;
    }

    /**
     * The compiled graph, built on first use. Never blocks: two threads that both find it missing both build it (a
     * pure construction) and the first stored wins, so an event loop never waits for the warm-up.
     */
    public CompiledGraph graph() {
        CompiledGraph g = graph.get();
        if (g == null) {
            CompiledGraph built = Objects.requireNonNull(build.get(), "graph");
            g = graph.compareAndSet(null, built) ? built : graph.get();
        }
        return g;
    }

    public InputPolicy policy() {
        return policy;
    }

    public Map<String, Object> configSchema() {
        return configSchema;
    }

    public ConfigPolicy configPolicy() {
        return configPolicy;
    }

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
