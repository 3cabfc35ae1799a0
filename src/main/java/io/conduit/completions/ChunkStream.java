package io.conduit.completions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.runs.RunEvent;
import java.util.function.Function;

/**
 * A run's events as OpenAI's streamed chat completion, the frames the {@code openai} client's strict accumulator
 * accepts: {@code data: <chunk>} lines, {@code role: "assistant"} on the first delta, the text as {@code content}
 * deltas (reasoning as {@code reasoning_content}, as vLLM and DeepSeek send it), an empty delta with
 * {@code finish_reason: "stop"} last, then with {@code include_usage} a chunk with no choices and the usage (every
 * other chunk then has {@code "usage": null}, as OpenAI writes it), then {@code data: [DONE]}. A failed run ends with an
 * error frame, which the client throws as an {@code APIError}. Called in order, on the connection's context; an event
 * that says nothing to the client makes no frame (the empty string).
 */
final class ChunkStream implements Function<RunEvent, String> {

    private final CompletionJson completion;
    private final boolean includeUsage;
    private final RunReading reading = new RunReading();
    private boolean opened;

    ChunkStream(CompletionJson completion, boolean includeUsage) {
        this.completion = completion;
        this.includeUsage = includeUsage;
    }

    @Override
    public String apply(RunEvent e) {
        StringBuilder out = new StringBuilder();
        for (RunReading.Piece p : reading.read(e)) {
            switch (p) {
                case RunReading.Piece.Text t -> frame(out, delta().put("content", t.text()), null);
                case RunReading.Piece.Reasoning r -> frame(out, delta().put("reasoning_content", r.text()), null);
                case RunReading.Piece.End end when end.error() == null -> finish(out);
                case RunReading.Piece.End end -> failed(out, end.error());
            }
        }
        return out.toString();
    }

    private void finish(StringBuilder out) {
        frame(out, delta(), "stop");
        if (includeUsage) {
            ObjectNode last = completion.header("chat.completion.chunk");
            last.putArray("choices");
            last.set("usage", CompletionJson.usage(reading));
            data(out, last.toString());
        }
        data(out, "[DONE]");
    }

    private void failed(StringBuilder out, String error) {
        data(out, new OpenAiError(500, "server_error", "run_failed", null, "The run failed: " + error, 0).json());
        data(out, "[DONE]");
    }

    /** One chunk; the first of the stream carries the role (and empty content, when its delta has none). */
    private void frame(StringBuilder out, ObjectNode delta, String finishReason) {
        if (!opened) {
            opened = true;
            ObjectNode first = delta().put("role", "assistant");
            if (delta.isEmpty()) {
                first.put("content", "");
            }
            first.setAll(delta);
            delta = first;
        }
        ObjectNode chunk = completion.header("chat.completion.chunk");
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            chunk.putNull("usage");
        }
        data(out, chunk.toString());
    }

    private static ObjectNode delta() {
        return JsonCodec.MAPPER.createObjectNode();
    }

    private static void data(StringBuilder out, String json) {
        out.append("data: ").append(json).append("\n\n");
    }
}
