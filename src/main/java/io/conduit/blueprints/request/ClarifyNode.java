package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * The clarification gate: the model judges whether the request is clear enough to act on; if not, the question it
 * would ask is kept for {@link AskNode}. After {@code max_clarifications} questions in a row, or when the judgement
 * cannot be had within the structured-output budget, the turn goes on with a best effort (noted in the errors).
 */
final class ClarifyNode implements Node {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"ambiguous\":{\"type\":\"boolean\"},"
            + "\"question\":{\"type\":\"string\",\"description\":\"what to ask the user when ambiguous\"}},\"required\":[\"ambiguous\"]}";

    record Judgement(boolean ambiguous, String question) {
    }

    private final LanguageModel model;
    private final Function<NodeContext, RequestSettings> settings;

    ClarifyNode(LanguageModel model, Function<NodeContext, RequestSettings> settings) {
        this.model = model;
        this.settings = settings;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        RequestSettings s = settings.apply(ctx);
        RequestInput input = state.get(RequestState.INPUT);
        Processing p = state.get(RequestState.PROCESSING);
        if (p.clarifyRounds() >= s.maxClarifications()) {
            return Uni.createFrom().item(Update.of(RequestState.PROCESSING, p.error("clarification: " + p.clarifyRounds()
                    + " questions asked in a row; going on with a best effort")));
        }
        String task = "Is this request clear enough to act on? If it is ambiguous, say what to ask.\n" + Prompts.request(input, p);
        return Structured.ask(model, s, ctx, "clarify", "judge_clarity", "Whether the request is ambiguous, and the question to ask",
                SCHEMA, input, task, n -> {
                    if (!n.path("ambiguous").isBoolean()) {
                        throw new IllegalArgumentException("ambiguous must be true or false");
                    }
                    return new Judgement(n.get("ambiguous").asBoolean(), n.path("question").asText(""));
                }).map(a -> {
                    Processing next = p.spent(RequestState.STRUCTURED_OUTPUT, a.calls().size());
                    if (a.value() == null) {
                        next = next.error("clarification: " + a.failure() + "; going on with a best effort");
                    } else if (a.value().ambiguous()) {
                        String q = a.value().question().isBlank() ? "Could you say more about what you need?" : a.value().question();
                        next = next.asking(q);
                    }
                    return Update.of(RequestState.PROCESSING, next)
                            .set(RequestState.TURN_METRICS, state.get(RequestState.TURN_METRICS).plus("clarify", a.calls()));
                });
    }
}
