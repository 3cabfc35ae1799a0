package io.conduit.blueprints.request;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.StructuredOutput;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.NodeContext;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A structured call of the request graph within the run's structured-output budget: the value, or why there is none. */
final class Structured {

    /** {@code value} null when the budget was spent ({@code failure} says why); every call made, for the metrics. */
    record Answer<T>(T value, String failure, List<ModelResponse> calls) {
    }

    private Structured() {
    }

    static <T> Uni<Answer<T>> ask(LanguageModel model, RequestSettings settings, NodeContext ctx, String node, String name,
                                  String description, String schema, RequestInput input, String task, Function<JsonNode, T> read) {
        List<ModelResponse> calls = new CopyOnWriteArrayList<>();
        StructuredOutput.Request<T> request = new StructuredOutput.Request<>(ModelRole.PLANNER, settings.model(), Prompts.of(input, task),
                name, description, schema, read);
        return StructuredOutput.call(model, request, settings.structuredOutput(), ctx, node, calls::add)
                .map(r -> new Answer<>(r.value(), null, List.copyOf(calls)))
                .onFailure(StructuredOutput.Exhausted.class).recoverWithItem(e -> new Answer<>(null, e.getMessage(), List.copyOf(calls)));
    }

    /** A required text field. */
    static String text(JsonNode n, String field) {
        if (!n.path(field).isTextual()) {
            throw new IllegalArgumentException(field + " must be a string");
        }
        return n.get(field).asText();
    }

    /** An optional list of texts. */
    static List<String> texts(JsonNode n, String field) {
        JsonNode a = n.get(field);
        if (a == null || a.isNull()) {
            return List.of();
        }
        if (!a.isArray()) {
            throw new IllegalArgumentException(field + " must be a list of strings");
        }
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode x : a) {
            if (!x.isTextual()) {
                throw new IllegalArgumentException(field + " must be a list of strings");
            }
            out.add(x.asText());
        }
        return out;
    }
}
