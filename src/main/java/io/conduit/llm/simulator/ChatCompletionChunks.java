package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated reply in OpenAI's chat-completions wire format: the chunks of a stream, or one {@code chat.completion}.
 * The stream is what the {@code openai} npm client's strict accumulator demands: {@code role} in the first delta,
 * each tool call opened with {@code index}, {@code id}, {@code type} and {@code function.name} before its
 * {@code arguments} arrive in fragments, and a {@code finish_reason} on the last choice chunk.
 */
final class ChatCompletionChunks {

    /** Tool-call arguments stream in pieces this long (code points), as a model's argument tokens do. */
    private static final int ARGUMENT_FRAGMENT = 8;

    private final String id;
    private final String model;
    private final long created;

    /** @param id a {@code chatcmpl-} id, unique per completion: tool-call ids are derived from it */
    ChatCompletionChunks(String id, String model, long created) {
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /**
     * The stream's chunks, each one JSON text on one line. With {@code includeUsage}, as OpenAI does, every choice
     * chunk carries {@code "usage": null} and a last chunk with no choices carries the usage.
     */
    List<String> stream(SimulatedReply reply, int promptTokens, boolean includeUsage) {
        List<String> chunks = new ArrayList<>();
        ObjectNode first = delta().put("role", "assistant");
        if (reply.callsTools()) {
            first.putNull("content");
        } else {
            first.put("content", "");
        }
        chunks.add(chunk(first, null, includeUsage));
        if (reply.reasoning() != null) {
            for (String t : TokenCount.split(reply.reasoning())) {
                chunks.add(chunk(delta().put("reasoning_content", t), null, includeUsage));
            }
        }
        for (String t : TokenCount.split(reply.text())) {
            chunks.add(chunk(delta().put("content", t), null, includeUsage));
        }
        for (int i = 0; i < reply.toolCalls().size(); i++) {
            SimulatedReply.Call call = reply.toolCalls().get(i);
            ObjectNode open = SimulatorJson.MAPPER.createObjectNode().put("index", i).put("id", callId(i)).put("type", "function");
            open.putObject("function").put("name", call.name()).put("arguments", "");
            chunks.add(chunk(toolCallDelta(open), null, includeUsage));
            for (String fragment : fragments(call.arguments())) {
                ObjectNode more = SimulatorJson.MAPPER.createObjectNode().put("index", i);
                more.putObject("function").put("arguments", fragment);
                chunks.add(chunk(toolCallDelta(more), null, includeUsage));
            }
        }
        chunks.add(chunk(delta(), finishReason(reply), includeUsage));
        if (includeUsage) {
            ObjectNode last = header();
            last.putArray("choices");
            last.set("usage", usage(promptTokens, reply));
            chunks.add(last.toString());
        }
        return chunks;
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
                ObjectNode entry = calls.addObject().put("id", callId(i)).put("type", "function");
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
        choice.put("finish_reason", finishReason(reply));
        c.set("usage", usage(promptTokens, reply));
        return c.toString();
    }

    /** Unique per call: the completion id's unique tail, and the call's index. */
    private String callId(int index) {
        return "call_" + id.substring(Math.max(0, id.length() - 20)) + index;
    }

    private static String finishReason(SimulatedReply reply) {
        return reply.callsTools() ? "tool_calls" : "stop";
    }

    /** The arguments cut into short pieces, never inside a surrogate pair. */
    static List<String> fragments(String arguments) {
        List<String> out = new ArrayList<>();
        int[] codePoints = arguments.codePoints().toArray();
        for (int i = 0; i < codePoints.length; i += ARGUMENT_FRAGMENT) {
            out.add(new String(codePoints, i, Math.min(ARGUMENT_FRAGMENT, codePoints.length - i)));
        }
        return out;
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
