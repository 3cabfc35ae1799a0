package io.conduit.agent;

import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * A pre-model hook that keeps the conversation a model gets within {@code budget} estimated tokens
 * ({@link TokenEstimate}): the leading system messages always stay, then the oldest turns go first. What is left
 * starts at a user message, so no tool result loses its call; the newest turn stays whole even when it alone is
 * over the budget (the model then gets as little as can make sense). Place it last, after the system prompt is in.
 */
public final class TrimToTokenBudget implements PreModelHook {

    private final int budget;

    public TrimToTokenBudget(int budget) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be positive");
        }
        this.budget = budget;
    }

    @Override
    public Uni<List<ChatMessage>> apply(List<ChatMessage> messages, State state, NodeContext ctx) {
        return Uni.createFrom().item(trim(messages));
    }

    List<ChatMessage> trim(List<ChatMessage> messages) {
        int head = 0;
        while (head < messages.size() && messages.get(head) instanceof SystemMessage) {
            head++;
        }
        List<ChatMessage> system = messages.subList(0, head);
        List<ChatMessage> rest = messages.subList(head, messages.size());
        int lastTurn = rest.size();
        for (int i = rest.size() - 1; i >= 0; i--) {
            if (rest.get(i) instanceof UserMessage) {
                lastTurn = i;
                break;
            }
        }
        int room = budget - TokenEstimate.of(system);
        int from = 0;
        while (from < lastTurn && TokenEstimate.of(rest.subList(from, rest.size())) > room) {
            from++;
            while (from < lastTurn && !(rest.get(from) instanceof UserMessage)) {
                from++; // a turn goes whole: never start at a tool result or in the middle of a turn
            }
        }
        if (from == 0) {
            return messages;
        }
        List<ChatMessage> out = new ArrayList<>(system);
        out.addAll(rest.subList(Math.min(from, lastTurn), rest.size()));
        return out;
    }
}
