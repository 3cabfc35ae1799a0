package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ModelRequest;
import io.conduit.agent.port.ModelRole;
import io.conduit.agent.port.ToolBox;
import io.conduit.agent.port.ToolSpec;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.Route;
import io.conduit.graph.Send;
import io.conduit.graph.State;
import io.conduit.graph.StateGraph;
import io.conduit.graph.Update;
import io.conduit.kernel.TimeOrderedIds;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One streamed model call with the tools bound. Tool calls go to the executor (one task each, in parallel). No tool
 * calls: in {@code answer} mode the planner's streamed text is the answer (one model call for a simple question),
 * in {@code route-only} mode the generator answers and the planner's text is not shown. Tools the client runs
 * ({@link ClientTools}) are bound too; a reply calling one ends the turn (its other calls are not run: the next turn
 * closes them) and waits for the client's result.
 */
public final class PlannerStage implements Node {

    private final LanguageModel model;
    private final ToolBox tools;
    private final AgentConfig config;
    private final Clock clock;

    public PlannerStage(LanguageModel model, ToolBox tools, AgentConfig config, Clock clock) {
        this.model = model;
        this.tools = tools;
        this.config = config;
        this.clock = clock;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        AgentSettings settings = AgentSettings.of(config, ctx.configurable());
        boolean routeOnly = settings.plannerMode() == PlannerMode.ROUTE_ONLY;
        String instructions = settings.systemPrompt();
        String replan = state.get(AgentState.SCRATCHPAD).notes().get("replan");
        if (replan != null) {
            instructions += "\n\nNote from the last attempt: " + replan;
        }
        List<ChatMessage> messages = new ArrayList<>();
        messages.add(SystemPrompt.of(instructions, state, clock));
        messages.addAll(AgentState.modelView(state));
        String messageId = TimeOrderedIds.next();
        List<ToolSpec> bound = new ArrayList<>(tools.specs().stream().filter(t -> settings.allows(t.name())).toList());
        Set<String> service = bound.stream().map(ToolSpec::name).collect(Collectors.toSet());
        settings.clientTools().stream().filter(t -> !service.contains(t.name())).forEach(bound::add); // a service tool of the same name wins
        ModelRequest request = new ModelRequest(ModelRole.PLANNER, messages, bound).withModel(settings.model());
        // route-only hides the planner's text, not its tool calls: those become a message in state either way
        StreamedModelCall.Shown shown = routeOnly ? StreamedModelCall.Shown.TOOL_CALLS : StreamedModelCall.Shown.ALL;
        return StreamedModelCall.run(model, request, ctx, messageId, "planner", shown).map(reply -> {
            LlmCall call = LlmCall.of(TimeOrderedIds.next(), ctx.runId(), "planner", reply.response());
            Update u = Update.of(AgentState.LLM_CALLS, call).set(AgentState.USAGE, Usage.of(call));
            if (reply.message().toolCalls().stream().anyMatch(c -> settings.isClientTool(c.name()) && !service.contains(c.name()))) {
                // the client runs it: the turn ends here, and the next one brings its result as a tool message
                return u.set(AgentState.MESSAGES, reply.message()).set(AgentState.PHASE, Phase.CLIENT_TOOLS);
            }
            if (reply.message().hasToolCalls()) {
                return u.set(AgentState.MESSAGES, reply.message()).set(AgentState.PHASE, Phase.EXECUTE);
            }
            if (routeOnly) {
                return u.set(AgentState.PHASE, Phase.GENERATE);
            }
            return u.set(AgentState.MESSAGES, reply.message()).set(AgentState.PHASE, Phase.ANSWERED);
        });
    }

    /**
     * After the planner: each tool call to its own executor task; else the generator (route-only) or the summarizer;
     * the end when it called a tool the client runs.
     */
    public static Route route(State state) {
        Phase phase = state.get(AgentState.PHASE);
        if (phase == Phase.CLIENT_TOOLS) {
            return Route.to(StateGraph.END);
        }
        if (phase == Phase.EXECUTE) {
            List<Send> sends = new ArrayList<>();
            for (ToolCall call : AgentState.lastAssistant(state).toolCalls()) {
                sends.add(new Send("tool_executor", call));
            }
            return Route.send(sends);
        }
        return Route.to(phase == Phase.GENERATE ? "generator" : "summarizer");
    }
}
