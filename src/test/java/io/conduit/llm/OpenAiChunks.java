package io.conduit.llm;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Chunks of an OpenAI chat-completions stream, in the exact shape of streaming-protocols.md §3. */
public final class OpenAiChunks {

    public static final String MODEL = "gpt-test-2025-01-01";

    private OpenAiChunks() {
    }

    public static String role() {
        return chunk(new JsonObject().put("role", "assistant").put("content", ""), null);
    }

    public static String content(String text) {
        return chunk(new JsonObject().put("content", text), null);
    }

    public static String reasoningContent(String text) {
        return chunk(new JsonObject().put("reasoning_content", text), null);
    }

    public static String reasoning(String text) {
        return chunk(new JsonObject().put("reasoning", text), null);
    }

    /** A tool call's first delta: index, id, type and name, no arguments yet. */
    public static String toolCallStart(int index, String id, String name) {
        JsonObject call = new JsonObject().put("index", index).put("id", id).put("type", "function")
                .put("function", new JsonObject().put("name", name).put("arguments", ""));
        return chunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
    }

    public static String toolCallArguments(int index, String fragment) {
        JsonObject call = new JsonObject().put("index", index)
                .put("function", new JsonObject().put("arguments", fragment));
        return chunk(new JsonObject().put("tool_calls", new JsonArray().add(call)), null);
    }

    public static String finish(String reason) {
        return chunk(new JsonObject(), reason);
    }

    /** The extra chunk that {@code stream_options.include_usage} asks for: no choices, only usage. */
    public static String usage(int prompt, int completion) {
        return base().put("choices", new JsonArray())
                .put("usage", new JsonObject().put("prompt_tokens", prompt).put("completion_tokens", completion)
                        .put("total_tokens", prompt + completion))
                .encode();
    }

    public static String error(String message, String type, Object code) {
        return new JsonObject().put("error", new JsonObject().put("message", message).put("type", type)
                .put("code", code)).encode();
    }

    private static String chunk(JsonObject delta, String finishReason) {
        JsonObject choice = new JsonObject().put("index", 0).put("delta", delta).put("logprobs", null)
                .put("finish_reason", finishReason);
        return base().put("choices", new JsonArray().add(choice)).encode();
    }

    private static JsonObject base() {
        return new JsonObject().put("id", "chatcmpl-1").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", MODEL).put("system_fingerprint", "fp_test");
    }
}
