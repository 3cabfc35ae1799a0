package io.conduit.blueprints.request;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.StateGraph;
import java.util.function.Function;

/**
 * The request graph: start → clarify ⇄ ask (the clarification gate; skipped for {@code is_api}) → plan → solve (once
 * per step, each within the solver timeout) → answer ⇄ validate → end.
 */
public final class RequestGraph {

    private RequestGraph() {
    }

    public static StateGraph define(RequestConfig config, LanguageModel model, ToolBox tools) {
        Function<NodeContext, RequestSettings> settings = ctx -> RequestSettings.of(config, ctx.configurable());
        return StateGraph.of(RequestState.SCHEMA)
                .node("start", new StartNode())
                .node("clarify", new ClarifyNode(model, settings))
                .node("ask", new AskNode(settings))
                .node("plan", new PlanNode(model, settings))
                .node("solve", new SolveNode(model, tools, settings), ctx -> settings.apply(ctx).solverTimeout())
                .node("answer", new AnswerNode(model, settings))
                .node("validate", new ValidateNode(settings))
                .edge(StateGraph.START, "start")
                .route("start", s -> Route.to(s.get(RequestState.INPUT).api() ? "plan" : "clarify"), "clarify", "plan")
                .route("clarify", s -> Route.to(s.get(RequestState.PROCESSING).question() != null ? "ask" : "plan"), "ask", "plan")
                .edge("ask", "clarify")
                .edge("plan", "solve")
                .route("solve", s -> {
                    Processing p = s.get(RequestState.PROCESSING);
                    return Route.to(p.nextStep() < p.plan().size() ? "solve" : "answer");
                }, "solve", "answer")
                .edge("answer", "validate")
                .route("validate", s -> Route.to(s.get(RequestState.PROCESSING).validationProblem() != null ? "answer" : StateGraph.END),
                        "answer", StateGraph.END);
    }

    public static CompiledGraph compile(RequestConfig config, LanguageModel model, ToolBox tools, Checkpointer store) {
        return define(config, model, tools).compile(GraphOptions.with(store));
    }
}
