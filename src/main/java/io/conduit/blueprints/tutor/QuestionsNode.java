package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.CheckedJsonAnswer;
import io.conduit.agent.message.AssistantMessage;
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
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * Writes the quiz's questions from the retrieved context: checked JSON (the number asked for, 2 to 6 distinct
 * choices each, an answer that names one of them), asked again within the budget. Past it the quiz ends with a
 * message saying so, not with a failed run.
 */
final class QuestionsNode implements Node {

    /** One question as the model writes it; {@code answer} is a letter, a number or the right choice's text. */
    record Written(String question, List<String> choices, String answer, String explanation) {
    }

    /** The model's questions. */
    record Questions(List<Written> questions) {
    }

    private final LanguageModel model;
    private final TutorConfig config;

    QuestionsNode(LanguageModel model, TutorConfig config) {
        this.model = model;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizSession quiz = state.get(TutorState.QUIZ);
        String material = Passages.material(state.get(TutorState.CONTEXT).asList());
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR,
                List.of(UserMessage.of(TutorPrompts.questions(quiz.total(), quiz.topic(), material))), List.of());
        return CheckedJsonAnswer.ask(model, ask, Questions.class, q -> problems(q, quiz.total()), config.structuredAttempts(), ctx, "generate_questions")
                .map(r -> ModelCalls.record(Update.of(TutorState.QUIZ, quiz.withQuestions(r.value().questions().stream().map(QuestionsNode::question).toList())),
                        ctx, "generate_questions", r.calls()))
                .onFailure(CheckedJsonAnswer.InvalidOutputException.class)
                .recoverWithItem(f -> Update.of(TutorState.QUIZ, quiz.finished())
                        .set(AgentState.MESSAGES, AssistantMessage.of("I could not write the quiz on " + quiz.topic() + " this time: " + f.getMessage())));
    }

    static List<String> problems(Questions q, int n) {
        List<String> out = new ArrayList<>();
        if (q.questions() == null || q.questions().size() != n) {
            out.add("\"questions\" must hold exactly " + n + " questions");
            return out;
        }
        for (int i = 0; i < n; i++) {
            Written w = q.questions().get(i);
            String at = "questions[" + i + "]";
            if (w == null || w.question() == null || w.question().isBlank()) {
                out.add(at + " has no question");
                continue;
            }
            if (w.choices() == null || w.choices().size() < 2 || w.choices().size() > 6) {
                out.add(at + " must have 2 to 6 choices");
                continue;
            }
            if (w.choices().stream().anyMatch(c -> c == null || c.isBlank())
                    || new HashSet<>(w.choices().stream().map(c -> c.strip().toLowerCase(Locale.ROOT)).toList()).size() != w.choices().size()) {
                out.add(at + " has an empty or repeated choice");
            }
            if (Choices.resolve(w.answer(), w.choices()) < 0) {
                out.add(at + ".answer must name one of its choices (a letter such as \"A\")");
            }
        }
        return out;
    }

    private static QuizQuestion question(Written w) {
        List<String> choices = w.choices().stream().map(String::strip).toList();
        return new QuizQuestion(w.question().strip(), choices, Choices.resolve(w.answer(), choices),
                w.explanation() == null ? "" : w.explanation().strip());
    }

    /** Whether the quiz has questions to ask (it has none when they could not be written). */
    static String route(State state) {
        return state.get(TutorState.QUIZ).next() >= 0 ? QuizGraph.PRESENT : QuizGraph.SUMMARY;
    }
}
