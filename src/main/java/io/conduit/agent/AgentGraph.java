package io.conduit.agent;

import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.UserMemory;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.StateGraph;
import java.time.Clock;

/**
 * The default assistant:
 * <pre>
 * ingress -> planner -+-> summarizer -> END            (no tool calls: the planner answered)
 *                     +-> tool_executor (one task per call) -> verifier -+-> generator -> summarizer
 *                     |        ^                                          |
 *                     |        +------------- planner <---- (empty/failed, budget left)
 *                     +-> generator (route-only mode)
 * </pre>
 */
public final class AgentGraph {

    private AgentGraph() {
    }

    public static StateGraph define(AgentConfig config, LanguageModel model, ToolBox tools, UserMemory memory,
                                    IngressStage.ModerationHook moderation, Clock clock) {
        return StateGraph.of(AgentState.SCHEMA)
                .node("ingress", new IngressStage(config, memory, moderation))
                .node("planner", new PlannerStage(model, tools, config, clock))
                .node("tool_executor", new ToolExecutorStage(tools))
                .node("verifier", new VerifierStage(config))
                .node("generator", new GeneratorStage(model, config, clock))
                .node("summarizer", new SummarizerStage(model, config))
                .edge(StateGraph.START, "ingress")
                .route("ingress", IngressStage::route, "planner", StateGraph.END)
                .route("planner", PlannerStage::route, "tool_executor", "generator", "summarizer", StateGraph.END)
                .edge("tool_executor", "verifier")
                .route("verifier", VerifierStage::route, "planner", "generator")
                .edge("generator", "summarizer")
                .edge("summarizer", StateGraph.END);
    }

    public static CompiledGraph compile(AgentConfig config, LanguageModel model, ToolBox tools, UserMemory memory,
                                        IngressStage.ModerationHook moderation, Clock clock, Checkpointer store) {
        return define(config, model, tools, memory, moderation, clock)
                .compile(GraphOptions.with(store).recursionLimit(config.recursionLimit()));
    }
}
