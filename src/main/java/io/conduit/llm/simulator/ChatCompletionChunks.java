package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A simulated reply in OpenAI's chat-completions wire format: the chunks of a stream, or one {@code chat.completion}.
 * The stream is what the {@code openai} npm client's strict accumulator demands: {@code role} in the first delta,
 * each tool call opened with {@code index}, {@code id}, {@code type} and {@code function.name} before its
 * {@code arguments} arrive in fragments, and a {@code finish_reason} on the last choice chunk.
 */
final class ChatCompletionChunks {

    private final String id;
    private final String model;
    private final long created;

    /** @param id a {@code chatcmpl-} id, unique per completion ({@link #newId()}): tool-call ids are derived from it */
    ChatCompletionChunks(String id, String model, long created) {
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /** A fresh completion id. */
    static String newId() {
        return "chatcmpl-" + UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * The stream's chunks, each one JSON text on one line. With {@code includeUsage}, as OpenAI does, every choice
     * chunk carries {@code "usage": null} and a last chunk with no choices carries the usage.
     */
    List<String> stream(SimulatedReply reply, int promptTokens, boolean includeUsage) {
        return frames(reply, promptTokens, includeUsage, false).stream().map(Supplier::get).toList();
    }

    /**
     * The same chunks, each written when it is asked for: with {@code stampTokens}, each text token is the time it
     * was written ({@link TokenStamp}), so the chunks are made as they are sent, not before.
     */
    List<Supplier<String>> frames(SimulatedReply reply, int promptTokens, boolean includeUsage, boolean stampTokens) {
        List<Supplier<String>> frames = new ArrayList<>();
        ObjectNode first = delta().put("role", "assistant");
        if (reply.callsTools()) {
            first.putNull("content");
        } else {
            first.put("content", "");
        }
        String opening = chunk(first, null, includeUsage);
        frames.add(() -> opening);
        for (ReplyPiece piece : ReplyPiece.of(reply)) {
            if (stampTokens && piece instanceof ReplyPiece.Text) {
                frames.add(() -> chunk(delta().put("content", TokenStamp.now()), null, includeUsage));
            } else {
                String chunk = chunk(piece, includeUsage);
                frames.add(() -> chunk);
            }
        }
        if (includeUsage) {
            ObjectNode last = header();
            last.putArray("choices");
            last.set("usage", usage(promptTokens, reply));
            String usage = last.toString();
            frames.add(() -> usage);
        }
        return frames;
    }

    private String chunk(ReplyPiece piece, boolean includeUsage) {
        return switch (piece) {
            case ReplyPiece.Reasoning r -> chunk(delta().put("reasoning_content", r.text()), null, includeUsage);
            case ReplyPiece.Text t -> chunk(delta().put("content", t.text()), null, includeUsage);
            case ReplyPiece.ToolCallOpening o -> {
                ObjectNode open = SimulatorJson.MAPPER.createObjectNode().put("index", o.index()).put("id", callId(id, o.index()))
                        .put("type", "function");
                open.putObject("function").put("name", o.name()).put("arguments", "");
                yield chunk(toolCallDelta(open), null, includeUsage);
            }
            case ReplyPiece.ToolCallArguments a -> {
                ObjectNode more = SimulatorJson.MAPPER.createObjectNode().put("index", a.index());
                more.putObject("function").put("arguments", a.fragment());
                yield chunk(toolCallDelta(more), null, includeUsage);
            }
            case ReplyPiece.Finish f -> chunk(delta(), f.reason(), includeUsage);
        };
    }

    /** The whole answer as one {@code chat.completion} object (a request without {@code stream: true}). */
    String completion(SimulatedReply reply, int promptTokens) {
        ObjectNode c = SimulatorJson.MAPPER.createObjectNode().put("id", id).put("object", "chat.completion")
                .put("created", created).put("model", model);
        ObjectNode message = SimulatorJson.MAPPER.createObjectNode().put("role", "assistant");
        if (reply.callsTools()) {
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            for (int i = 0; i < reply.toolCalls().size(); i++) {
                SimulatedReply.Call call = reply.toolCalls().get(i);
                ObjectNode entry = calls.addObject().put("id", callId(id, i)).put("type", "function");
                entry.putObject("function").put("name", call.name()).put("arguments", call.arguments());
            }
        } else {
            message.put("content", reply.text());
        }
        if (reply.reasoning() != null) {
            message.put("reasoning_content", reply.reasoning());
        }
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.finishReason());
        c.set("usage", usage(promptTokens, reply));
        return c.toString();
    }

    /** Unique per call: the completion id's unique tail, and the call's index. */
    static String callId(String completionId, int index) {
        return "call_" + completionId.substring(Math.max(0, completionId.length() - 20)) + index;
    }

    private static ObjectNode delta() {
        return SimulatorJson.MAPPER.createObjectNode();
    }

    private static ObjectNode toolCallDelta(ObjectNode call) {
        ObjectNode delta = delta();
        delta.putArray("tool_calls").add(call);
        return delta;
    }

    private static ObjectNode usage(int promptTokens, SimulatedReply reply) {
        int completion = reply.completionTokens();
        return SimulatorJson.MAPPER.createObjectNode().put("prompt_tokens", promptTokens)
                .put("completion_tokens", completion).put("total_tokens", promptTokens + completion);
    }

    private ObjectNode header() {
        return SimulatorJson.MAPPER.createObjectNode().put("id", id).put("object", "chat.completion.chunk")
                .put("created", created).put("model", model);
    }

    private String chunk(ObjectNode delta, String finishReason, boolean includeUsage) {
        ObjectNode c = header();
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        if (includeUsage) {
            c.putNull("usage");
        }
        return c.toString();
    }
}
