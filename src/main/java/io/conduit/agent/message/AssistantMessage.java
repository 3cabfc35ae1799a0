package io.conduit.agent.message;

import io.conduit.kernel.TimeOrderedIds;
import java.util.List;

/**
 * What a model said: text, and the tools it asked for. {@code reasoning} is a reasoning model's thinking, kept apart
 * from the answer; {@code stage} names the stage that produced it (planner, generator); {@code usage} the tokens of the
 * model call that wrote it (null for a message no model call wrote, such as a refusal or a client's input).
 */
public record AssistantMessage(String id, String content, List<ToolCall> toolCalls, String reasoning, String stage,
                               TokenUsage usage) implements ChatMessage {

    public AssistantMessage {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        content = content == null ? "" : content;
    }

    public AssistantMessage(String id, String content, List<ToolCall> toolCalls, String reasoning, String stage) {
        this(id, content, toolCalls, reasoning, stage, null);
    }

    public static AssistantMessage of(String content) {
        return new AssistantMessage(TimeOrderedIds.next(), content, List.of(), null, null);
    }

    @Override
    public boolean readable() {
        return !content.isBlank() || hasToolCalls();
    }

    public boolean hasToolCalls() {
        return !toolCalls.isEmpty();
    }
}
