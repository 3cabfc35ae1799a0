package io.conduit.llm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Chunks of a Mistral chat-completions stream (streaming-protocols.md §3): same SSE framing as OpenAI, tool calls
 * complete in one delta with the arguments as a string, usage on the last chunk.
 */
public final class MistralChunks {

    public static final String MODEL = "mistral-small-2503";

    private MistralChunks() {
    }

    public static String content(String text, boolean first) {
        JsonObject delta = new JsonObject().put("content", text);
        if (first) {
            delta.put("role", "assistant");
        }
        return chunk(delta, null, null);
    }

    public static String toolCalls(JsonObject... calls) {
        JsonArray array = new JsonArray();
        for (JsonObject c : calls) {
            array.add(c);
        }
        return chunk(new JsonObject().put("role", "assistant").put("content", "").put("tool_calls", array), null, null);
    }

    public static JsonObject call(String id, String name, String arguments) {
        return new JsonObject().put("id", id).put("function", new JsonObject().put("name", name).put("arguments", arguments))
                .put("index", 0);
    }

    public static String last(String finishReason, int prompt, int completion) {
        return chunk(new JsonObject().put("content", ""), finishReason, new JsonObject().put("prompt_tokens", prompt)
                .put("completion_tokens", completion).put("total_tokens", prompt + completion));
    }

    private static String chunk(JsonObject delta, String finishReason, JsonObject usage) {
        JsonObject choice = new JsonObject().put("index", 0).put("delta", delta).put("finish_reason", finishReason);
        JsonObject chunk = new JsonObject().put("id", "cmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", MODEL).put("choices", new JsonArray().add(choice));
        if (usage != null) {
            chunk.put("usage", usage);
        }
        return chunk.encode();
    }
}
