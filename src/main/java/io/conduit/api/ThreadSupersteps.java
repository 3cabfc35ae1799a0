package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.StateGraph;
import io.conduit.graph.Update;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.graphs.InputDecoder;
import io.conduit.runs.graphs.RegisteredGraph;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * A new thread's {@code supersteps} (LangGraph's {@code threads.create}): {@code [{updates: [{values, as_node}]}]},
 * applied in order once the thread exists, each as {@code POST /threads/{id}/state} applies one
 * ({@link CompiledGraph#updateState}, a checkpoint each). Every update is decoded and checked with the graph's input
 * policy before the thread is created, so one that is refused leaves nothing behind. {@code as_node} is required:
 * a node of the graph, or {@code __start__} (also {@code __input__}, LangGraph's name for it here) for an update that
 * acts as an input.
 */
final class ThreadSupersteps {

    private record Step(Update values, String asNode) {
    }

    private final List<Step> steps;

    private ThreadSupersteps(List<Step> steps) {
        this.steps = steps;
    }

    /** Throws {@link InvalidInputException} naming the first field that is wrong. */
    static ThreadSupersteps parse(JsonNode supersteps, RegisteredGraph graph) {
        List<Step> steps = new ArrayList<>();
        if (supersteps == null || supersteps.isNull()) {
            return new ThreadSupersteps(steps);
        }
        if (!supersteps.isArray()) {
            throw new InvalidInputException("supersteps", "must be a list of {updates: [{values, as_node}]}");
        }
        for (int i = 0; i < supersteps.size(); i++) {
            JsonNode updates = supersteps.get(i).path("updates");
            if (!updates.isArray() || updates.isEmpty()) {
                throw new InvalidInputException("supersteps[" + i + "].updates", "must be a non-empty list of {values, as_node}");
            }
            for (int j = 0; j < updates.size(); j++) {
                steps.add(step(updates.get(j), "supersteps[" + i + "].updates[" + j + "]", graph));
            }
        }
        return new ThreadSupersteps(steps);
    }

    private static Step step(JsonNode u, String field, RegisteredGraph graph) {
        if (!u.isObject()) {
            throw new InvalidInputException(field, "must be an object {values, as_node}");
        }
        if (u.hasNonNull("command")) {
            throw new InvalidInputException(field + ".command", "is not supported: a superstep's update writes values");
        }
        JsonNode node = u.get("as_node");
        if (node == null || !node.isTextual()) {
            throw new InvalidInputException(field + ".as_node", "is required: the node the values are written as, or __start__");
        }
        String asNode = node.asText().equals("__input__") ? StateGraph.START : node.asText();
        if (!asNode.equals(StateGraph.START) && !graph.graph().nodeNames().contains(asNode)) {
            throw new InvalidInputException(field + ".as_node", "the graph " + graph.graphId() + " has no node " + asNode);
        }
        Update values = InputDecoder.decode(graph.graph().schema(), u.get("values"), field + ".values");
        values = values == null ? Update.none() : values;
        graph.policy().checkUpdate(field + ".values", values);
        return new Step(values, asNode);
    }

    boolean isEmpty() {
        return steps.isEmpty();
    }

    /** Writes the updates to the thread, one after the other. */
    Uni<Void> apply(String threadId, CompiledGraph graph) {
        Uni<Void> done = Uni.createFrom().voidItem();
        for (Step s : steps) {
            done = done.chain(() -> graph.updateState(threadId, s.values(), s.asNode(), null).replaceWithVoid());
        }
        return done;
    }
}
