package io.conduit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Rewrites each chunk of an OpenAI-compatible stream before LangChain4j 1.11 parses it (the SSE listener of
 * {@link ProviderModels}' HTTP client applies it to every event's data) and works around four gaps, all covered by
 * {@code OpenAiStreamingTest}:
 * <ul>
 * <li>vLLM sends reasoning as {@code delta.reasoning} (newer) or {@code delta.reasoning_content} (0.8 and older).
 * LangChain4j 1.11 maps only {@code reasoning_content} (the alias for {@code reasoning} came in 1.19) and would drop
 * the other silently; it is renamed here so both reach {@code onPartialThinking}.</li>
 * <li>A tool-call delta without {@code function.name} (every argument fragment after the first) makes
 * LangChain4j 1.11 throw "name cannot be null or blank" when the index differs from the previous delta's, which is
 * how parallel tool calls interleave; the exception is dropped and the stream hangs. Such deltas get
 * {@link #NAME_CONTINUATION} as name; LangChain4j appends it to the name it keeps per index, and
 * {@link StreamAttempt} strips it.</li>
 * <li>The same name continuation leaves LangChain4j's partial tool calls ({@code onPartialToolCall}) without the
 * tool's name, and the delta that opens a call (id and name, {@code "arguments": ""}) makes none, as it has no
 * arguments: the name would only be known at the end. That delta gets {@link #ARGUMENTS_OPENING} as arguments, so
 * it becomes a partial call carrying id and name, which {@link ToolCallDeltas} streams (the mark stripped) as the
 * call's first delta.</li>
 * <li>An error object in the stream ({@code data: {"error":{...}}}) would be dropped the same way. It becomes an
 * {@link InBandError} text delta.</li>
 * </ul>
 * Other chunks pass through untouched, without a second parse.
 */
public final class OpenAiChunkRewrite {

    private OpenAiChunkRewrite() {
    }

    /** WORD JOINER: not blank to LangChain4j (it trims only up to U+0020), never part of a tool name. */
    static final String NAME_CONTINUATION = "\u2060";

    /**
     * Arguments of a delta that opens a tool call without any: WORD JOINER again, not empty to LangChain4j, stripped
     * from arguments by {@link ToolCallDeltas} and {@link StreamAttempt} (JSON arguments need it nowhere).
     */
    static final String ARGUMENTS_OPENING = "\u2060";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One event's data: the same text when nothing needed fixing. */
    static String normalised(String data) {
        byte[] in = data.getBytes(StandardCharsets.UTF_8);
        byte[] out = normalised(in);
        return out == in ? data : new String(out, StandardCharsets.UTF_8);
    }

    static byte[] normalised(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8);
        if (!text.contains("\"reasoning\"") && !text.contains("\"error\"") && !text.contains("\"tool_calls\"")) {
            return body;
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (IOException notJson) {
            return body;
        }
        if (!(root instanceof ObjectNode chunk)) {
            return body;
        }
        if (chunk.has("error")) {
            return errorAsDelta(chunk);
        }
        boolean changed = false;
        for (JsonNode choice : chunk.path("choices")) {
            if (choice.path("delta") instanceof ObjectNode delta) {
                changed |= renameReasoning(delta);
                changed |= nameContinuations(delta);
            }
        }
        return changed ? bytes(chunk) : body;
    }

    private static boolean renameReasoning(ObjectNode delta) {
        if (!delta.has("reasoning")) {
            return false;
        }
        JsonNode reasoning = delta.remove("reasoning");
        // some servers send both with the same text; keep one
        if (!delta.hasNonNull("reasoning_content") && reasoning.isTextual()) {
            delta.set("reasoning_content", reasoning);
        }
        return true;
    }

    private static boolean nameContinuations(ObjectNode delta) {
        boolean changed = false;
        for (JsonNode call : delta.path("tool_calls")) {
            if (!(call instanceof ObjectNode toolCall)) {
                continue;
            }
            ObjectNode fn;
            if (toolCall.get("function") instanceof ObjectNode existing) {
                fn = existing;
            } else {
                fn = toolCall.putObject("function");
                changed = true;
            }
            if (!fn.hasNonNull("name") || fn.get("name").asText().isBlank()) {
                fn.put("name", NAME_CONTINUATION);
                changed = true;
            } else if (!fn.hasNonNull("arguments") || fn.get("arguments").asText().isEmpty()) {
                fn.put("arguments", ARGUMENTS_OPENING);
                changed = true;
            }
        }
        return changed;
    }

    private static byte[] errorAsDelta(ObjectNode chunk) {
        String message = ProviderErrorBody.message(chunk);
        Integer code = ProviderErrorBody.code(chunk);
        ObjectNode replacement = JSON.createObjectNode()
                .put("id", chunk.path("id").asText("error"))
                .put("object", "chat.completion.chunk");
        ArrayNode choices = replacement.putArray("choices");
        ObjectNode choice = choices.addObject().put("index", 0);
        choice.putObject("delta").put("content", InBandError.encode(message == null ? chunk.toString() : message, code));
        choice.set("finish_reason", JsonNodeFactory.instance.nullNode());
        return bytes(replacement);
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
