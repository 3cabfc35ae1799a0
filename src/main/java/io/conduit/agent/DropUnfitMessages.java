package io.conduit.agent;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.NodeContext;
import io.conduit.graph.State;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/**
 * A pre-model hook that leaves out messages a model should not get: empty ones (a provider refuses an empty user or
 * assistant message) and ones longer than {@code maxChars} (a pasted log that would crowd out the conversation).
 * Messages that belong to a tool call are cut or filled instead of dropped, since a call without its result, or a
 * result without its call, makes the provider refuse the whole request: an assistant message with tool calls keeps
 * its calls (an oversized text is left out), a tool result is cut to {@code maxChars} or reads "(no output)". The
 * newest user message, the question being answered, is cut to {@code maxChars} rather than dropped.
 */
public final class DropUnfitMessages implements PreModelHook {

    static final String NO_OUTPUT = "(no output)";
    static final String CUT = " [cut: the rest was too long to send]";

    private final int maxChars;

    public DropUnfitMessages(int maxChars) {
        if (maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive");
        }
        this.maxChars = maxChars;
    }

    @Override
    public Uni<List<ChatMessage>> apply(List<ChatMessage> messages, State state, NodeContext ctx) {
        int newest = -1;
        for (int i = messages.size() - 1; i >= 0 && newest < 0; i--) {
            if (messages.get(i) instanceof UserMessage) {
                newest = i;
            }
        }
        List<ChatMessage> kept = new ArrayList<>(messages.size());
        for (int i = 0; i < messages.size(); i++) {
            ChatMessage m = messages.get(i);
            // the question being answered is cut, never dropped: without it the model has nothing to answer
            ChatMessage fit = i == newest && m.content().length() > maxChars
                    ? new UserMessage(m.id(), m.content().substring(0, maxChars) + CUT) : fit(m);
            if (fit != null) {
                kept.add(fit);
            }
        }
        return Uni.createFrom().item(kept);
    }

    private ChatMessage fit(ChatMessage m) {
        String text = m.content();
        boolean blank = text == null || text.isBlank();
        boolean tooLong = !blank && text.length() > maxChars;
        return switch (m) {
            case RemoveMessage r -> null;
            case ToolMessage t when blank -> new ToolMessage(t.id(), t.toolCallId(), t.name(), NO_OUTPUT, t.error());
            case ToolMessage t when tooLong -> new ToolMessage(t.id(), t.toolCallId(), t.name(), text.substring(0, maxChars) + CUT, t.error());
            case AssistantMessage a when a.hasToolCalls() -> tooLong
                    ? new AssistantMessage(a.id(), "", a.toolCalls(), a.reasoning(), a.stage(), a.usage()) : a;
            default -> blank || tooLong ? null : m;
        };
    }
}
