package io.conduit.http.answer;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;

/**
 * The tokens a run's model calls used, from its root graph's updates: by the graph's {@code usage} channel (every
 * model call, the agent's summarizer's too) when it has one, else by its AI messages' usage.
 */
final class TokenCount {

    /** The usage of a run that said nothing of it. */
    public static final String NONE = json(0, 0);

    private static final String USAGE = "usage";
    private static final String MESSAGES = "messages";

    private boolean usageChannel;
    private long promptTokens;
    private long completionTokens;
    private long messagePromptTokens;
    private long messageCompletionTokens;

    /** Counts what a node's update adds. */
    void add(Update update) {
        Object usage = null;
        for (Update.Write w : update.writes()) {
            String channel = w.channel().name();
            if (USAGE.equals(channel)) {
                usage = w.value(); // written twice in one update, the channel's last write is its update's
            } else if (MESSAGES.equals(channel) && w.value() instanceof AssistantMessage m && m.usage() != null) {
                messagePromptTokens += m.usage().inputTokens();
                messageCompletionTokens += m.usage().outputTokens();
            }
        }
        // the channel's value type is the graph's own: read by its JSON fields, as a client reads the update
        JsonNode tree = usage == null ? null : JsonCodec.MAPPER.valueToTree(usage);
        if (tree != null && tree.isObject()) {
            usageChannel = true;
            promptTokens += tree.path("inputTokens").asLong(0);
            completionTokens += tree.path("outputTokens").asLong(0);
        }
    }

    /** OpenAI's {@code usage}: {@code {prompt_tokens, completion_tokens, total_tokens}}. */
    String json() {
        return usageChannel ? json(promptTokens, completionTokens) : json(messagePromptTokens, messageCompletionTokens);
    }

    private static String json(long prompt, long completion) {
        return "{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completion + ",\"total_tokens\":" + (prompt + completion) + "}";
    }
}
