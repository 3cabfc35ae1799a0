package io.conduit.agent.port;

import io.conduit.agent.message.ToolCall;
import java.util.List;

/**
 * A finished model call: its text, tool calls and reasoning, and what it cost. {@code timeToFirstTokenMillis} is -1
 * when the model produced no text; {@code estimatedCostUsd} comes from the configured price table (0 when the
 * model has no price).
 */
public record ModelResponse(String text, List<ToolCall> toolCalls, String reasoning, String provider, String model,
                            int inputTokens, int outputTokens, String finishReason, long timeToFirstTokenMillis,
                            long durationMillis, double estimatedCostUsd) {
}
