package io.conduit.agent.message;

import io.conduit.checkpoint.TimeOrderedIds;
import java.util.List;

/**
 * What a model said: text, and the tools it asked for. {@code reasoning} is a reasoning model's thinking, kept apart
 * from the answer; {@code stage} names the stage that produced it (planner, generator).
 */
public record AssistantMessage(String id, String content, List<ToolCall> toolCalls, String reasoning, String stage) implements ChatMessage {

    public AssistantMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        content = content == null ? "" : content;
    }

    public static AssistantMessage of(String content) {
        return new AssistantMessage(TimeOrderedIds.next(), content, List.of(), null, null);
    }

    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
