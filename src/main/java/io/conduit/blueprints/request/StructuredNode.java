package io.conduit.blueprints.request;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.StructuredOutput;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A node of the request graph that asks the model for a structured value, as a function named {@code function}
 * whose arguments follow {@code schema}, within the run's structured-output budget: every call it makes, failed
 * attempts included, is charged to that budget and counted in the turn's metrics under the node's name.
 */
abstract class StructuredNode implements Node {

    /** What the node works from: the run's settings, the request and the processing so far. */
    record Turn(State state, NodeContext ctx, RequestSettings settings, RequestInput input, Processing processing) {
    }

    /** {@code value} null when the budget was spent ({@code failure} says why); every call made, for the metrics. */
    record Answer<T>(T value, String failure, List<ModelResponse> calls) {

        /** {@code p} with these calls charged to the structured-output budget. */
        Processing charged(Processing p) {
            return p.spent(RequestState.STRUCTURED_OUTPUT, calls.size());
        }
    }

    private final LanguageModel model;
    private final Function<NodeContext, RequestSettings> settings;
    private final String node;
    private final String function;
    private final String description;
    private final String schema;

    StructuredNode(LanguageModel model, Function<NodeContext, RequestSettings> settings, String node, String function, String description,
                   String schema) {
        this.model = model;
        this.settings = settings;
        this.node = node;
        this.function = function;
        this.description = description;
        this.schema = schema;
    }

    @Override
    public final Uni<Update> run(State state, NodeContext ctx) {
        return run(new Turn(state, ctx, settings.apply(ctx), state.get(RequestState.INPUT), state.get(RequestState.PROCESSING)));
    }

    abstract Uni<Update> run(Turn turn);

    /** The value the model gives for {@code task}, read by {@code read}, or why there is none within the budget. */
    final <T> Uni<Answer<T>> ask(Turn t, String task, Function<JsonNode, T> read) {
        List<ModelResponse> calls = new CopyOnWriteArrayList<>();
        StructuredOutput.Request<T> request = new StructuredOutput.Request<>(ModelRole.PLANNER, t.settings().model(),
                Prompts.of(t.input(), task), function, description, schema, read);
        return StructuredOutput.call(model, request, t.settings().structuredOutput(), t.ctx(), node, calls::add)
                .map(r -> new Answer<>(r.value(), null, List.copyOf(calls)))
                .onFailure(StructuredOutput.Exhausted.class).recoverWithItem(e -> new Answer<>(null, e.getMessage(), List.copyOf(calls)));
    }

    /** {@code update} with {@code calls} added to the turn's metrics under this node's name. */
    final Update measured(Turn t, Update update, List<ModelResponse> calls) {
        return update.set(RequestState.TURN_METRICS, t.state().get(RequestState.TURN_METRICS).plus(node, calls));
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
        List<String> out = new ArrayList<>();
        for (JsonNode x : a) {
            if (!x.isTextual()) {
                throw new IllegalArgumentException(field + " must be a list of strings");
            }
            out.add(x.asText());
        }
        return out;
    }
}
