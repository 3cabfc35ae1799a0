package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * Writes the answer from the steps' results, with follow-up suggestions and an optional selection prompt; after a
 * refused answer the model is told why. An answer that cannot be had within the structured-output budget is an
 * empty one, which validation refuses.
 */
final class AnswerNode implements Node {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\"},"
            + "\"suggestions\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"selection_prompt\":{\"type\":\"string\"}},"
            + "\"required\":[\"answer\"]}";

    private final LanguageModel model;
    private final Function<NodeContext, RequestSettings> settings;

    AnswerNode(LanguageModel model, Function<NodeContext, RequestSettings> settings) {
        this.model = model;
        this.settings = settings;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        RequestSettings s = settings.apply(ctx);
        RequestInput input = state.get(RequestState.INPUT);
        Processing p = state.get(RequestState.PROCESSING);
        String task = "Write the answer to this request.\n" + Prompts.request(input, p) + "\nStep results: " + String.join(" | ", p.results())
                + (p.validationProblem() == null ? "" : "\nYour last answer was refused: " + p.validationProblem());
        return Structured.ask(model, s, ctx, "answer", "give_answer", "The answer, follow-up suggestions and an optional selection prompt",
                SCHEMA, input, task, n -> new RequestOutput(Structured.text(n, "answer"), Structured.texts(n, "suggestions"),
                        n.path("selection_prompt").isTextual() ? n.get("selection_prompt").asText() : null))
                .map(a -> {
                    Processing next = p.spent(RequestState.STRUCTURED_OUTPUT, a.calls().size()).spent(RequestState.VALIDATION, 1);
                    if (a.value() == null) {
                        next = next.error("answer: " + a.failure());
                    }
                    return Update.of(RequestState.OUTPUT, a.value() == null ? RequestOutput.EMPTY : a.value())
                            .set(RequestState.PROCESSING, next)
                            .set(RequestState.TURN_METRICS, state.get(RequestState.TURN_METRICS).plus("answer", a.calls()));
                });
    }
}
