package io.conduit.blueprints.tutor;

import java.util.ArrayList;
import java.util.List;

/**
 * A quiz as the checkpoints carry it: the topic, the search queries, the questions, the answers judged so far, the
 * answer waiting to be judged, and where it stands ({@code preparing}, {@code in_progress}, {@code finished}).
 * Immutable; each step makes a new one.
 */
public record QuizSession(String topic, int total, List<String> queries, List<QuizQuestion> questions, List<QuizResult> results,
                          String pendingAnswer, String status) {

    public static final QuizSession NONE = new QuizSession("", 0, List.of(), List.of(), List.of(), null, "none");

    public QuizSession {
        queries = queries == null ? List.of() : List.copyOf(queries);
        questions = questions == null ? List.of() : List.copyOf(questions);
        results = results == null ? List.of() : List.copyOf(results);
    }

    public static QuizSession start(String topic, int total) {
        return new QuizSession(topic, total, List.of(), List.of(), List.of(), null, "preparing");
    }

    public QuizSession withQueries(List<String> q) {
        return new QuizSession(topic, total, q, questions, results, pendingAnswer, status);
    }

    public QuizSession withQuestions(List<QuizQuestion> q) {
        return new QuizSession(topic, total, queries, q, results, pendingAnswer, "in_progress");
    }

    public QuizSession answered(String answer) {
        return new QuizSession(topic, total, queries, questions, results, answer, status);
    }

    public QuizSession judged(QuizResult r) {
        List<QuizResult> all = new ArrayList<>(results);
        all.add(r);
        return new QuizSession(topic, total, queries, questions, all, null, status);
    }

    public QuizSession finished() {
        return new QuizSession(topic, total, queries, questions, results, null, "finished");
    }

    public int score() {
        return (int) results.stream().filter(QuizResult::correct).count();
    }

    /** The question to ask next (0-based), or -1 when every question was answered. */
    public int next() {
        return results.size() < questions.size() ? results.size() : -1;
    }
}
