package io.conduit.blueprints.tutor;

/** How one question was answered: what the student said, the choice it means (-1: none), the verdict and the feedback. */
public record QuizResult(int questionNum, String answer, int chosen, boolean correct, String feedback) {
}
