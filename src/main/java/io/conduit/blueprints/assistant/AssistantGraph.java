package io.conduit.blueprints.assistant;

import io.conduit.agent.CloseUnansweredToolCalls;
import io.conduit.agent.DatedSystemPrompt;
import io.conduit.agent.DropUnfitMessages;
import io.conduit.agent.FollowUpStage;
import io.conduit.agent.PreModelHook;
import io.conduit.agent.ToolExecutorStage;
import io.conduit.agent.TrimToTokenBudget;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.port.LanguageModel;
import io.conduit.agent.port.ToolBox;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.StateGraph;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The assistant blueprint (graph id {@value #GRAPH_ID}): a supervisor with memory tools that hands work to sub-agents.
 * <pre>
 * START -> supervisor -+-> tools (search_memory, add_memory: one task per call) ----+
 *             ^        +-> researcher | writer (handoff: each its own graph) -------+
 *             +--------------------------------------------------------------------+
 *                      +-> follow_up (suggestions) -> END        (no tool calls: answered)
 * sub-agent:  START -> agent -+-> tools -> agent
 *                             +-> learn (skill memory) -> END
 * </pre>
 * Every model call goes through the pre-model hooks: unfit messages dropped, the system prompt with the date and
 * time in the user's time zone and their memories, the history trimmed to the token budget.
 */
public final class AssistantGraph {

    public static final String GRAPH_ID = "assistant";

    private AssistantGraph() {
    }

    /** @param tools every tool the blueprint has (its sub-sets go to the supervisor and each sub-agent) */
    public static StateGraph define(AssistantConfig config, LanguageModel model, ToolBox tools, AssistantMemory memory,
                                    List<SubAgent> agents, Clock clock) {
        List<String> names = agents.stream().map(SubAgent::name).toList();
        String instructions = config.systemPrompt() + "\n\nSub-agents you can hand off to:" + String.join("",
                agents.stream().map(a -> "\n- " + a.name() + ": " + a.description()).toList());
        ToolBox supervisorTools = new ToolSubset(tools, List.of(SearchMemoryTool.NAME, AddMemoryTool.NAME),
                List.of(Handoff.spec(agents)), call -> Handoff.refused(call, agents));
        PreModelHook hook = hooks(config, instructions, new PromptMemories(memory, config.memoriesInPrompt(), null), clock);

        List<String> targets = new ArrayList<>(names);
        targets.add("tools");
        targets.add("follow_up");
        StateGraph g = StateGraph.of(AssistantState.SCHEMA)
                .node("supervisor", new ModelNode("supervisor", model, supervisorTools, hook))
                .node("tools", new ToolExecutorStage(supervisorTools))
                .node("follow_up", new FollowUpStage(model, config.suggestionsModel().orElse(null), config.suggestions(),
                        AssistantState.SUGGESTIONS))
                .edge(StateGraph.START, "supervisor")
                .route("supervisor", s -> ModelNode.route(s, "follow_up", call -> target(call, names)), targets.toArray(String[]::new))
                .edge("tools", "supervisor")
                .edge("follow_up", StateGraph.END);
        for (SubAgent a : agents) {
            g.node(a.name(), subAgent(config, a, model, tools, memory, clock), new HandoffMapping(a.name()))
                    .edge(a.name(), "supervisor");
        }
        return g;
    }

    public static CompiledGraph compile(AssistantConfig config, LanguageModel model, ToolBox tools, AssistantMemory memory,
                                        Clock clock, Checkpointer store) {
        return define(config, model, tools, memory, SubAgent.DEFAULTS, clock)
                .compile(GraphOptions.with(store).recursionLimit(config.recursionLimit()));
    }

    /** A sub-agent's own graph: its prompt (with the skills it learned), its tools, its loop, and the skill it keeps. */
    static CompiledGraph subAgent(AssistantConfig config, SubAgent a, LanguageModel model, ToolBox tools, AssistantMemory memory, Clock clock) {
        ToolBox own = new ToolSubset(tools, a.tools(), List.of(), call -> null);
        PreModelHook hook = hooks(config, a.prompt(), new PromptMemories(memory, config.memoriesInPrompt(), a.name()), clock);
        return StateGraph.of(SubAgentState.SCHEMA)
                .node("agent", new ModelNode(a.name(), model, own, hook))
                .node("tools", new ToolExecutorStage(own))
                .node("learn", new LearnSkillNode(a.name(), memory))
                .edge(StateGraph.START, "agent")
                .route("agent", s -> ModelNode.route(s, "learn", call -> "tools"), "tools", "learn")
                .edge("tools", "agent")
                .edge("learn", StateGraph.END)
                .compile(GraphOptions.defaults().recursionLimit(config.subAgentRecursionLimit()));
    }

    /**
     * Before every model call: close calls a stopped turn left unanswered, drop unfit messages, put the dated system
     * prompt with the memories first, trim to the budget.
     */
    static PreModelHook hooks(AssistantConfig config, String instructions, DatedSystemPrompt.Memories memories, Clock clock) {
        return new CloseUnansweredToolCalls()
                .then(new DropUnfitMessages(config.maxModelMessageChars()))
                .then(new DatedSystemPrompt(instructions, memories, clock))
                .then(new TrimToTokenBudget(config.contextTokenBudget()));
    }

    /** A handoff to a known sub-agent goes to its graph; every other call to the tool node (which refuses a bad handoff). */
    private static String target(ToolCall call, List<String> agents) {
        Handoff h = Handoff.of(call);
        return h != null && agents.contains(h.agent()) ? h.agent() : "tools";
    }
}
