package io.conduit.blueprints.tutor;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;

/** Ends the quiz: the score and each question's verdict and feedback, as the tutor's message. */
final class QuizSummaryNode implements Node {

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        QuizSession quiz = state.get(TutorState.QUIZ);
        if (quiz.questions().isEmpty()) {
            return Uni.createFrom().item(Update.of(TutorState.QUIZ, quiz.finished())); // the questions node said why
        }
        StringBuilder b = new StringBuilder("Quiz on " + quiz.topic() + " finished: you scored " + quiz.score() + "/" + quiz.questions().size() + ".");
        for (QuizResult r : quiz.results()) {
            QuizQuestion q = quiz.questions().get(r.questionNum() - 1);
            b.append("\n\n").append(r.questionNum()).append(". ").append(r.correct() ? "Correct" : "Not quite")
                    .append(" (you answered ").append(r.answer().isEmpty() ? "nothing" : r.answer())
                    .append("; the answer is ").append(QuizQuestion.letter(q.answer())).append(")").append(": ").append(r.feedback());
        }
        return Uni.createFrom().item(Update.of(TutorState.QUIZ, quiz.finished()).set(AgentState.MESSAGES, AssistantMessage.of(b.toString())));
    }
}
