package io.conduit.blueprints.request;

import io.conduit.agent.NodeModelCall;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelResponse;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolScope;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Carries out the next step of the plan: one model call with the tools bound; the tools it calls run one after
 * another, each within {@code http_tool_timeout_ms}, and their results are the step's result (else the model's
 * text is). A tool that fails or times out fails the step, and the run, with the tool's message: a step's result is
 * never made up. The node runs within {@code solver_timeout_ms} (see {@link RequestGraph}).
 */
final class SolveNode implements Node {

    private final LanguageModel model;
    private final ToolBox tools;
    private final Function<NodeContext, RequestSettings> settings;

    SolveNode(LanguageModel model, ToolBox tools, Function<NodeContext, RequestSettings> settings) {
        this.model = model;
        this.tools = tools;
        this.settings = settings;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        RequestSettings s = settings.apply(ctx);
        RequestInput input = state.get(RequestState.INPUT);
        Processing p = state.get(RequestState.PROCESSING);
        int i = p.nextStep();
        String step = p.plan().get(i);
        String task = "Carry out step " + (i + 1) + " of " + p.plan().size() + ": " + step + "\n" + Prompts.request(input, p)
                + (p.results().isEmpty() ? "" : "\nResults so far: " + String.join(" | ", p.results()));
        ModelRequest request = new ModelRequest(ModelRole.GENERATOR, Prompts.of(input, task), tools.specs(), s.model());
        ToolScope scope = new ToolScope(ctx.threadId(), input.userId(), userValues(input)).withTimeout(s.httpToolTimeout());
        return NodeModelCall.call(model, request, ctx, "solve").chain(r -> result(r, scope, i)
                .map(result -> Update.of(RequestState.PROCESSING, p.stepDone(result))
                        .set(RequestState.TURN_METRICS, state.get(RequestState.TURN_METRICS).plus("solve", List.of(r)))));
    }

    private Uni<String> result(ModelResponse r, ToolScope scope, int i) {
        if (r.toolCalls().isEmpty()) {
            return Uni.createFrom().item(r.text());
        }
        return Multi.createFrom().iterable(r.toolCalls())
                .onItem().transformToUniAndConcatenate((ToolCall call) -> tools.call(call, scope).map(o -> {
                    if (o.error()) {
                        throw new StepFailed("step " + (i + 1) + " failed: " + o.content());
                    }
                    return call.name() + ": " + o.content();
                }))
                .collect().asList().map(results -> String.join("\n", results));
    }

    private static Map<String, Object> userValues(RequestInput input) {
        return input.userId() == null ? Map.of() : Map.of("user_id", input.userId());
    }

    /** A step that could not be carried out; its message says which and why. */
    static final class StepFailed extends RuntimeException {
        StepFailed(String message) {
            super(message);
        }
    }
}
