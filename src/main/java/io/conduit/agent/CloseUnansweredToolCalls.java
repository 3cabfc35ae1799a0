package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pre-model hook for a conversation that holds a turn stopped between the model's tool calls and their results (a
 * cancelled, crashed or timed-out run): a provider refuses a call left unanswered, so each one gets a tool message
 * saying so, right after the calls' own results, in what the model receives. The thread's record is left as it is
 * (the default assistant's ingress writes such messages instead, {@link IngressStage#closeUnfinishedTurn}).
 */
public final class CloseUnansweredToolCalls implements PreModelHook {

    @Override
    public Uni<List<ChatMessage>> apply(List<ChatMessage> messages, State state, NodeContext ctx) {
        Set<String> answered = new HashSet<>();
        for (ChatMessage m : messages) {
            if (m instanceof ToolMessage t) {
                answered.add(t.toolCallId());
            }
        }
        List<ChatMessage> out = new ArrayList<>(messages.size());
        Map<String, ToolCall> open = new LinkedHashMap<>();
        for (ChatMessage m : messages) {
            if (!(m instanceof ToolMessage)) {
                close(open, out);
            }
            out.add(m);
            if (m instanceof AssistantMessage a) {
                for (ToolCall c : a.toolCalls()) {
                    if (!answered.contains(c.id())) {
                        open.put(c.id(), c);
                    }
                }
            }
        }
        close(open, out);
        return Uni.createFrom().item(out.size() == messages.size() ? messages : out);
    }

    private static void close(Map<String, ToolCall> open, List<ChatMessage> out) {
        for (ToolCall c : open.values()) {
            out.add(new ToolMessage("unanswered-" + c.id(), c.id(), c.name(), IngressStage.INTERRUPTED, true));
        }
        open.clear();
    }
}
