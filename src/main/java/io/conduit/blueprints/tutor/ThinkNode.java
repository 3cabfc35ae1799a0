package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.CheckedJsonAnswer;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.MessageList;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;

/**
 * Rates the student's question (basic, intermediate, advanced) and picks the system prompt for that level: the rules
 * first ({@link Difficulty#byRules}), the model when they cannot tell (a checked JSON answer, within the budget; past
 * it, intermediate). Also settles the subject for the turn and starts its tool rounds at zero.
 */
final class ThinkNode implements Node {

    /** The model's rating. */
    record Rating(String level) {
    }

    private final LanguageModel model;
    private final TutorConfig config;

    ThinkNode(LanguageModel model, TutorConfig config) {
        this.model = model;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        String question = lastQuestion(state.get(AgentState.MESSAGES));
        Update base = Update.of(TutorState.TOOL_ROUNDS, 0).set(TutorState.THINKING, "")
                .set(TutorState.SUBJECT, subject(state, ctx, config));
        Optional<Difficulty> byRules = Difficulty.byRules(question);
        if (byRules.isPresent()) {
            return Uni.createFrom().item(rated(base, byRules.get(), "rules"));
        }
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of(TutorPrompts.rate(question))), List.of());
        return CheckedJsonAnswer.ask(model, ask, Rating.class,
                        r -> Difficulty.of(r.level()).isPresent() ? List.of() : List.of("level must be basic, intermediate or advanced"),
                        config.structuredAttempts(), ctx, "think")
                .map(r -> ModelCalls.record(rated(base, Difficulty.of(r.value().level()).orElseThrow(), "model"), ctx, "think", r.calls()))
                .onFailure(CheckedJsonAnswer.InvalidOutputException.class)
                .recoverWithItem(() -> rated(base, Difficulty.INTERMEDIATE, "default"));
    }

    private static Update rated(Update u, Difficulty d, String by) {
        return u.set(TutorState.DIFFICULTY, d.wire()).set(TutorState.RATED_BY, by).set(TutorState.PROMPT, TutorPrompts.key(d));
    }

    /** The subject: the run's setting first, then what the thread has, then the configured default. */
    static String subject(State state, NodeContext ctx, TutorConfig config) {
        if (ctx.configurable().get("subject") instanceof String s && !s.isBlank()) {
            return s.strip();
        }
        String inState = state.get(TutorState.SUBJECT);
        return inState == null || inState.isBlank() ? config.defaultSubject() : inState;
    }

    static String lastQuestion(MessageList<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage u) {
                return u.content();
            }
        }
        return "";
    }
}
