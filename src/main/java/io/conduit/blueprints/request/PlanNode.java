package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelResponse;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Plans the request as a few steps. A plan that cannot be had (the structured-output budget spent) or is not usable
 * (no steps, a blank one, more than {@code max_plan_steps}) is asked for again, told why, up to
 * {@code planning_attempts} plans; then the request itself is taken as a one-step plan (noted in the errors).
 */
final class PlanNode extends StructuredNode {

    static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"steps\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
            + "\"required\":[\"steps\"]}";

    PlanNode(LanguageModel model, Function<NodeContext, RequestSettings> settings) {
        super(model, settings, "plan", "make_plan", "The steps of the plan", SCHEMA);
    }

    @Override
    Uni<Update> run(Turn t) {
        List<ModelResponse> calls = new ArrayList<>();
        return attempt(t, t.processing(), calls, 1, null).map(next -> measured(t, Update.of(RequestState.PROCESSING, next), calls));
    }

    private Uni<Processing> attempt(Turn t, Processing p, List<ModelResponse> calls, int n, String problem) {
        RequestSettings s = t.settings();
        if (n > s.planningAttempts()) {
            return Uni.createFrom().item(p.planned(List.of(t.input().message())).error("planning: no usable plan after "
                    + s.planningAttempts() + " attempts (" + problem + "); the request is carried out as one step"));
        }
        String task = "Plan the steps to carry out this request (at most " + s.maxPlanSteps() + ").\n" + Prompts.request(t.input(), p)
                + (problem == null ? "" : "\nYour last plan was not usable: " + problem);
        return ask(t, task, node -> texts(node, "steps"))
                .chain(a -> {
                    calls.addAll(a.calls());
                    Processing spent = a.charged(p).spent(RequestState.PLANNING, 1);
                    String wrong = a.value() == null ? a.failure() : problem(a.value(), s.maxPlanSteps());
                    if (wrong == null) {
                        return Uni.createFrom().item(spent.planned(a.value()));
                    }
                    return attempt(t, spent, calls, n + 1, wrong);
                });
    }

    static String problem(List<String> steps, int max) {
        if (steps.isEmpty()) {
            return "it has no steps";
        }
        if (steps.size() > max) {
            return "it has " + steps.size() + " steps, more than " + max;
        }
        return steps.stream().anyMatch(String::isBlank) ? "a step is blank" : null;
    }
}
