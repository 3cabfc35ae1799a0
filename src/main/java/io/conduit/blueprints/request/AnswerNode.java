package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * Writes the answer from the steps' results, with follow-up suggestions and an optional selection prompt; after a
 * refused answer the model is told why. An answer that cannot be had within the structured-output budget is an
 * empty one, which validation refuses.
 */
final class AnswerNode extends StructuredNode {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\"},"
            + "\"suggestions\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}},\"selection_prompt\":{\"type\":\"string\"}},"
            + "\"required\":[\"answer\"]}";

    AnswerNode(LanguageModel model, Function<NodeContext, RequestSettings> settings) {
        super(model, settings, "answer", "give_answer", "The answer, follow-up suggestions and an optional selection prompt", SCHEMA);
    }

    @Override
    Uni<Update> run(Turn t) {
        Processing p = t.processing();
        String task = "Write the answer to this request.\n" + Prompts.request(t.input(), p) + "\nStep results: " + String.join(" | ", p.results())
                + (p.validationProblem() == null ? "" : "\nYour last answer was refused: " + p.validationProblem());
        return ask(t, task, n -> new RequestOutput(text(n, "answer"), texts(n, "suggestions"),
                n.path("selection_prompt").isTextual() ? n.get("selection_prompt").asText() : null))
                .map(a -> {
                    Processing next = a.charged(p).spent(RequestState.VALIDATION, 1);
                    if (a.value() == null) {
                        next = next.error("answer: " + a.failure());
                    }
                    return measured(t, Update.of(RequestState.OUTPUT, a.value() == null ? RequestOutput.EMPTY : a.value())
                            .set(RequestState.PROCESSING, next), a.calls());
                });
    }
}
