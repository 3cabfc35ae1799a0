package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.graph.Node;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The end of a sub-agent's run: when its tools all answered without error, the procedure (which tools, in which
 * order, for what kind of task) is kept as a skill of this sub-agent for this user, and its later prompts show it.
 * One skill per tool sequence, so the same procedure is kept once; streamed as the custom event {@value #EVENT}.
 */
final class LearnSkillNode implements Node {

    static final String EVENT = "skill_saved";
    private static final int TASK_CHARS = 160;

    private final String agent;
    private final AssistantMemory memory;

    LearnSkillNode(String agent, AssistantMemory memory) {
        this.agent = agent;
        this.memory = memory;
    }

    @Override
    public Uni<Update> run(State state, NodeContext ctx) {
        List<String> tools = new ArrayList<>();
        for (ChatMessage m : state.get(AgentState.MESSAGES)) {
            if (m instanceof ToolMessage t && t.error()) {
                return Uni.createFrom().item(Update.none()); // a procedure that failed is not worth repeating
            }
            if (m instanceof AssistantMessage a) {
                for (ToolCall c : a.toolCalls()) {
                    if (!tools.contains(c.name())) {
                        tools.add(c.name());
                    }
                }
            }
        }
        if (tools.isEmpty()) {
            return Uni.createFrom().item(Update.none());
        }
        String task = state.get(SubAgentState.TASK);
        String skill = "for a task like \"" + (task.length() > TASK_CHARS ? task.substring(0, TASK_CHARS) + "…" : task)
                + "\", call " + String.join(", then ", tools) + ", then report";
        return memory.addSkill(state.get(AgentState.USER_ID), agent, String.join("+", tools), skill).map(done -> {
            ctx.custom(EVENT, Map.of("agent", agent, "skill", skill));
            return Update.none();
        });
    }
}
