package io.conduit.runs.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.TokenUsage;

/**
 * A model call's token usage in LangChain's shape ({@code input_tokens}, {@code output_tokens}, {@code total_tokens}):
 * {@code usage_metadata} on an AI message in state, {@code usage} on the thread protocol's {@code message-finish}.
 */
public final class UsageJson {

    private UsageJson() {
    }

    public static void put(ObjectNode target, String field, TokenUsage u) {
        if (u != null) {
            target.putObject(field).put("input_tokens", u.inputTokens()).put("output_tokens", u.outputTokens())
                    .put("total_tokens", u.totalTokens());
        }
    }

    public static StringBuilder append(StringBuilder d, String field, TokenUsage u) {
        if (u != null) {
            d.append(",\"").append(field).append("\":{\"input_tokens\":").append(u.inputTokens())
                    .append(",\"output_tokens\":").append(u.outputTokens())
                    .append(",\"total_tokens\":").append(u.totalTokens()).append('}');
        }
        return d;
    }
}
