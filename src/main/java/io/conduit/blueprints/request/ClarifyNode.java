package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * The clarification gate: the model judges whether the request is clear enough to act on; if not, the question it
 * would ask is kept for {@link AskNode}. After {@code max_clarifications} questions in a row, or when the judgement
 * cannot be had within the structured-output budget, the turn goes on with a best effort (noted in the errors).
 */
final class ClarifyNode extends StructuredNode {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"ambiguous\":{\"type\":\"boolean\"},"
            + "\"question\":{\"type\":\"string\",\"description\":\"what to ask the user when ambiguous\"}},\"required\":[\"ambiguous\"]}";

    record Judgement(boolean ambiguous, String question) {
    }

    ClarifyNode(LanguageModel model, Function<NodeContext, RequestSettings> settings) {
        super(model, settings, "clarify", "judge_clarity", "Whether the request is ambiguous, and the question to ask", SCHEMA);
    }

    @Override
    Uni<Update> run(Turn t) {
        Processing p = t.processing();
        if (p.clarifyRounds() >= t.settings().maxClarifications()) {
            return Uni.createFrom().item(Update.of(RequestState.PROCESSING, p.error("clarification: " + p.clarifyRounds()
                    + " questions asked in a row; going on with a best effort")));
        }
        String task = "Is this request clear enough to act on? If it is ambiguous, say what to ask.\n" + Prompts.request(t.input(), p);
        return ask(t, task, n -> {
            if (!n.path("ambiguous").isBoolean()) {
                throw new IllegalArgumentException("ambiguous must be true or false");
            }
            return new Judgement(n.get("ambiguous").asBoolean(), n.path("question").asText(""));
        }).map(a -> {
            Processing next = a.charged(p);
            if (a.value() == null) {
                next = next.error("clarification: " + a.failure() + "; going on with a best effort");
            } else if (a.value().ambiguous()) {
                String q = a.value().question().isBlank() ? "Could you say more about what you need?" : a.value().question();
                next = next.asking(q);
            }
            return measured(t, Update.of(RequestState.PROCESSING, next), a.calls());
        });
    }
}
