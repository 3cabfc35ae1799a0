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

/**
 * Judges the answer against the question and the retrieved context, and records the verdict and the feedback. An
 * answer that names a choice is scored by the key (the model writes the feedback); one in the student's own words is
 * scored by the model's verdict. Past the budget, the question's explanation is the feedback.
 */
final class JudgeAnswerNode implements Node {

    /** The model's verdict. */
    record Verdict(Boolean correct, String feedback) {
    }

    private final LanguageModel model;
    private final TutorConfig config;

    JudgeAnswerNode(LanguageModel model, TutorConfig config) {
        this.model = model;
        this.config = config;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizSession quiz = state.get(TutorState.QUIZ);
        int i = quiz.next();
        QuizQuestion q = quiz.questions().get(i);
        String answer = quiz.pendingAnswer() == null ? "" : quiz.pendingAnswer();
        int chosen = Choices.resolve(answer, q.choices());
        String material = Passages.material(state.get(TutorState.CONTEXT).asList());
        ModelRequest ask = new ModelRequest(ModelRole.GENERATOR, List.of(UserMessage.of(TutorPrompts.judge(q, answer, material))), List.of());
        return CheckedJsonAnswer.ask(model, ask, Verdict.class, JudgeAnswerNode::problems, config.structuredAttempts(), ctx, "judge_answer")
                .map(r -> {
                    boolean correct = chosen >= 0 ? chosen == q.answer() : r.value().correct();
                    QuizResult result = new QuizResult(i + 1, answer, chosen, correct, r.value().feedback().strip());
                    return ModelCalls.record(Update.of(TutorState.QUIZ, quiz.judged(result)), ctx, "judge_answer", r.calls());
                })
                .onFailure(CheckedJsonAnswer.InvalidOutputException.class).recoverWithItem(() -> {
                    String key = "The answer is " + QuizQuestion.letter(q.answer()) + ") " + q.choices().get(q.answer()) + ". " + q.explanation();
                    return Update.of(TutorState.QUIZ, quiz.judged(new QuizResult(i + 1, answer, chosen, chosen == q.answer(), key.strip())));
                });
    }

    static List<String> problems(Verdict v) {
        List<String> out = new ArrayList<>();
        if (v.correct() == null) {
            out.add("\"correct\" (true or false) is missing");
        }
        if (v.feedback() == null || v.feedback().isBlank()) {
            out.add("\"feedback\" is missing");
        }
        return out;
    }

    /** The next question, or the summary once every one is answered. */
    static String route(State state) {
        return state.get(TutorState.QUIZ).next() >= 0 ? QuizGraph.PRESENT : QuizGraph.SUMMARY;
    }
}
