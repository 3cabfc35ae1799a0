package io.conduit.blueprints.request;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code processing} bucket: what the nodes work out on the way. {@code clarifications}: the user's replies;
 * {@code clarify_rounds}: questions asked in a row this turn; {@code question}: the one about to be asked;
 * {@code plan} and {@code results} (one per step done); {@code attempts}: attempts spent per budget
 * ({@code structured_output}, {@code planning}, {@code validation}); {@code validation_problem}: why the last answer
 * was refused; {@code errors}: what was given up on (a budget spent, best effort taken).
 */
public record Processing(List<String> clarifications, @JsonProperty("clarify_rounds") Integer clarifyRounds, String question,
                         List<String> plan, List<String> results, Map<String, Integer> attempts,
                         @JsonProperty("validation_problem") String validationProblem, List<String> errors) {

    public static final Processing EMPTY = new Processing(List.of(), 0, null, List.of(), List.of(), Map.of(), null, List.of());

    public Processing {
        clarifications = clarifications == null ? List.of() : List.copyOf(clarifications);
        clarifyRounds = clarifyRounds == null ? 0 : clarifyRounds;
        plan = plan == null ? List.of() : List.copyOf(plan);
        results = results == null ? List.of() : List.copyOf(results);
        attempts = attempts == null ? Map.of() : Map.copyOf(attempts);
        errors = errors == null ? List.of() : List.copyOf(errors);
    }

    public Processing asking(String q) {
        return new Processing(clarifications, clarifyRounds, q, plan, results, attempts, validationProblem, errors);
    }

    public Processing answered(String reply) {
        return new Processing(plus(clarifications, reply), clarifyRounds + 1, null, plan, results, attempts, validationProblem, errors);
    }

    public Processing planned(List<String> steps) {
        return new Processing(clarifications, clarifyRounds, question, steps, List.of(), attempts, validationProblem, errors);
    }

    public Processing stepDone(String result) {
        return new Processing(clarifications, clarifyRounds, question, plan, plus(results, result), attempts, validationProblem, errors);
    }

    public Processing refused(String problem) {
        return new Processing(clarifications, clarifyRounds, question, plan, results, attempts, problem, errors);
    }

    public Processing error(String error) {
        return new Processing(clarifications, clarifyRounds, question, plan, results, attempts, validationProblem, plus(errors, error));
    }

    /** {@code n} more attempts spent on {@code budget}. */
    public Processing spent(String budget, int n) {
        if (n <= 0) {
            return this;
        }
        Map<String, Integer> a = new HashMap<>(attempts);
        a.merge(budget, n, Integer::sum);
        return new Processing(clarifications, clarifyRounds, question, plan, results, a, validationProblem, errors);
    }

    public int spentOn(String budget) {
        return attempts.getOrDefault(budget, 0);
    }

    /** The step the solver does next (0-based); the plan is done when it equals the plan's size. */
    public int nextStep() {
        return results.size();
    }

    private static List<String> plus(List<String> list, String item) {
        List<String> out = new ArrayList<>(list);
        out.add(item);
        return out;
    }
}
