package io.conduit.blueprints.assistant;

import io.conduit.agent.AgentState;
import io.conduit.agent.DatedSystemPrompt;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * The memories a system prompt shows: the user's memories that share words with their message first, then others up
 * to {@code limit}; for a sub-agent ({@code agent} not null), the procedures it learned for this user before them.
 */
final class PromptMemories implements DatedSystemPrompt.Memories {

    static final String SKILL_PREFIX = "A procedure that worked before: ";

    private final AssistantMemory memory;
    private final int limit;
    private final String agent;

    PromptMemories(AssistantMemory memory, int limit, String agent) {
        this.memory = memory;
        this.limit = limit;
        this.agent = agent;
    }

    @Override
    public Uni<List<String>> relevant(State state, NodeContext ctx, String query) {
        String user = state.get(AgentState.USER_ID);
        Uni<List<String>> skills = agent == null ? Uni.createFrom().item(List.of())
                : memory.skills(user, agent).map(s -> s.stream().map(x -> SKILL_PREFIX + x).toList());
        Uni<List<String>> facts = limit < 1 ? Uni.createFrom().item(List.of()) : memory.search(user, query, limit).flatMap(found -> {
            if (found.size() >= limit) {
                return Uni.createFrom().item(text(found));
            }
            return memory.list(user, limit * 4).map(more -> {
                List<AssistantMemory.Memory> all = new ArrayList<>(found);
                for (AssistantMemory.Memory m : more) {
                    if (all.size() < limit && !all.contains(m)) {
                        all.add(m);
                    }
                }
                return text(all);
            });
        });
        return Uni.combine().all().unis(skills, facts).with((s, f) -> {
            List<String> out = new ArrayList<>(s);
            out.addAll(f);
            return out;
        });
    }

    private static List<String> text(List<AssistantMemory.Memory> memories) {
        return memories.stream().map(m -> m.key() + ": " + m.text()).toList();
    }
}
