package io.conduit.completions;

import io.conduit.http.answer.RunReading;
import io.conduit.runs.events.RunEvent;
import java.util.function.Function;

/**
 * A run's answer ({@link RunReading}'s pieces) as OpenAI's streamed chat completion, the frames the {@code openai}
 * client's strict accumulator accepts: {@code data: <chunk>} lines, {@code role: "assistant"} on the first delta, the
 * text as {@code content} deltas (reasoning as {@code reasoning_content}, as vLLM and DeepSeek send it), an empty delta
 * with {@code finish_reason: "stop"} last, then with {@code include_usage} a chunk with no choices and the usage (every
 * other chunk then has {@code "usage": null}, as OpenAI writes it), then {@code data: [DONE]}. A failed run ends with an
 * error frame, which the client throws as an {@code APIError}. Called in order, on the connection's context; nothing
 * is framed after the end. The pieces' text is JSON-escaped already: a chunk is written around it, by hand.
 */
final class ChunkStream implements Function<RunEvent, String> {

    private final String head;
    private final boolean includeUsage;
    private boolean opened;
    private boolean ended;

    ChunkStream(CompletionJson completion, boolean includeUsage) {
        this.head = completion.head("chat.completion.chunk");
        this.includeUsage = includeUsage;
    }

    @Override
    public String apply(RunEvent e) {
        if (ended) {
            return "";
        }
        StringBuilder out = new StringBuilder(head.length() + e.length() + 128);
        switch (e.mode()) {
            case RunReading.TEXT -> chunk(out, "\"content\":\"" + e.data() + '"', null);
            case RunReading.REASONING -> chunk(out, "\"reasoning_content\":\"" + e.data() + '"', null);
            case RunReading.END -> finish(out, e.data());
            case RunReading.FAILED -> failed(out, e.data());
            default -> {
            }
        }
        return out.toString();
    }

    private void finish(StringBuilder out, String usage) {
        ended = true;
        chunk(out, "", "stop");
        if (includeUsage) {
            data(out).append(head).append(",\"choices\":[],\"usage\":").append(usage).append("}\n\n");
        }
        data(out).append("[DONE]\n\n");
    }

    private void failed(StringBuilder out, String error) {
        ended = true;
        data(out).append(new OpenAiError(500, "server_error", "run_failed", null, "The run failed: " + error, 0).json()).append("\n\n");
        data(out).append("[DONE]\n\n");
    }

    /** One chunk; {@code delta}: its fields; the first of the stream carries the role (and empty content, when its delta has none). */
    private void chunk(StringBuilder out, String delta, String finishReason) {
        data(out).append(head).append(",\"choices\":[{\"index\":0,\"delta\":{");
        if (!opened) {
            opened = true;
            out.append("\"role\":\"assistant\",").append(delta.isEmpty() ? "\"content\":\"\"" : delta);
        } else {
            out.append(delta);
        }
        out.append("},\"logprobs\":null,\"finish_reason\":").append(finishReason == null ? "null" : "\"" + finishReason + "\"").append("}]");
        if (includeUsage) {
            out.append(",\"usage\":null");
        }
        out.append("}\n\n");
    }

    private static StringBuilder data(StringBuilder out) {
        return out.append("data: ");
    }
}
