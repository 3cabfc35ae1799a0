package io.conduit.blueprints.request;

import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.HashSet;
import java.util.function.Function;

/**
 * Checks the answer: not empty, not longer than {@code max_answer_chars}, at most 3 suggestions, none blank or
 * repeated. A refused answer goes back to {@link AnswerNode} with the reason, until {@code validation_attempts}
 * answers were written; then the last one is kept as it is (noted in the errors).
 */
final class ValidateNode implements Node {

    static final int MAX_SUGGESTIONS = 3;

    private final Function<NodeContext, RequestSettings> settings;

    ValidateNode(Function<NodeContext, RequestSettings> settings) {
        this.settings = settings;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        RequestSettings s = settings.apply(ctx);
        Processing p = state.get(RequestState.PROCESSING);
        String problem = problem(state.get(RequestState.OUTPUT), s.maxAnswerChars());
        Processing next;
        if (problem == null) {
            next = p.refused(null);
        } else if (p.spentOn(RequestState.VALIDATION) < s.validationAttempts()) {
            next = p.refused(problem);
        } else {
            next = p.refused(null).error("validation: " + s.validationAttempts() + " answers refused (the last: " + problem
                    + "); the last one is kept");
        }
        return Uni.createFrom().item(Update.of(RequestState.PROCESSING, next));
    }

    static String problem(RequestOutput o, int maxChars) {
        if (o.text().isBlank()) {
            return "the answer is empty";
        }
        if (o.text().length() > maxChars) {
            return "the answer is longer than " + maxChars + " characters";
        }
        if (o.suggestions().size() > MAX_SUGGESTIONS) {
            return "there are " + o.suggestions().size() + " suggestions, more than " + MAX_SUGGESTIONS;
        }
        if (o.suggestions().stream().anyMatch(String::isBlank) || new HashSet<>(o.suggestions()).size() < o.suggestions().size()) {
            return "a suggestion is blank or repeated";
        }
        return null;
    }
}
