package io.conduit.blueprints.tutor;

import io.conduit.agent.CheckedJsonAnswer;
import io.conduit.agent.message.UserMessage;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/** Three search queries for the quiz's topic (checked JSON); past the budget, the topic itself is the one query. */
final class QueriesNode implements Node {

    static final int QUERIES = 3;

    /** The model's queries. */
    record Queries(List<String> queries) {
    }

    private final LanguageModel model;
    private final TutorConfig config;

    QueriesNode(LanguageModel model, TutorConfig config) {
        this.model = model;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizSession quiz = state.get(TutorState.QUIZ);
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR,
                List.of(UserMessage.of(TutorPrompts.queries(quiz.topic(), state.get(TutorState.SUBJECT)))), List.of());
        return CheckedJsonAnswer.ask(model, ask, Queries.class, QueriesNode::problems, config.structuredAttempts(), ctx, "generate_queries")
                .map(r -> ModelCalls.record(Update.of(TutorState.QUIZ, quiz.withQueries(r.value().queries().stream().map(String::strip).toList())),
                        ctx, "generate_queries", r.calls()))
                .onFailure(CheckedJsonAnswer.InvalidOutputException.class)
                .recoverWithItem(() -> Update.of(TutorState.QUIZ, quiz.withQueries(List.of(quiz.topic()))));
    }

    static List<String> problems(Queries q) {
        List<String> out = new ArrayList<>();
        if (q.queries() == null || q.queries().size() != QUERIES) {
            out.add("\"queries\" must hold exactly " + QUERIES + " queries");
        } else if (q.queries().stream().anyMatch(s -> s == null || s.isBlank())) {
            out.add("a query is empty");
        }
        return out;
    }
}
