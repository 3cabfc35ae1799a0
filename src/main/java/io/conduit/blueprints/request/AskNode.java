package io.conduit.blueprints.request;

import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.function.Function;

/**
 * Asks the user the gate's question: the run stops with {@code {action: "clarify", question, round, max_rounds}}
 * and resumes with the reply ({@code command.resume}: a text, or {@code {answer}}), which the gate reads next.
 */
final class AskNode implements Node {

    private final Function<NodeContext, RequestSettings> settings;

    AskNode(Function<NodeContext, RequestSettings> settings) {
        this.settings = settings;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        Processing p = state.get(RequestState.PROCESSING);
        Object reply = ctx.interrupt(Map.of("action", "clarify", "question", p.question(), "round", p.clarifyRounds() + 1,
                "max_rounds", settings.apply(ctx).maxClarifications()), Object.class);
        return Uni.createFrom().item(Update.of(RequestState.PROCESSING, p.answered(text(reply))));
    }

    static String text(Object reply) {
        if (reply instanceof String s) {
            return s;
        }
        if (reply instanceof Map<?, ?> m && m.get("answer") instanceof String s) {
            return s;
        }
        try {
            return JsonCodec.MAPPER.writeValueAsString(reply);
        } catch (Exception e) {
            return String.valueOf(reply);
        }
    }
}
