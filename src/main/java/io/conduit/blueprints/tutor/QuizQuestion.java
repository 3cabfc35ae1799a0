package io.conduit.blueprints.tutor;

import java.util.List;

/** A multiple-choice question of a quiz: its choices, the index of the right one, and why it is right. */
public record QuizQuestion(String question, List<String> choices, int answer, String explanation) {

    public QuizQuestion {
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    /** {@code A}, {@code B}, … for choice {@code i}. */
    public static String letter(int i) {
        return String.valueOf((char) ('A' + i));
    }
}
