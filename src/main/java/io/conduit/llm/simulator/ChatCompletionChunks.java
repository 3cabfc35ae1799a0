package io.conduit.llm.simulator;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's chat-completions wire format for a simulated reply: the stream's chunks (role first, content token by
 * token, each tool call opened with index, id, type and name and then its arguments in fragments, the finish
 * reason, an optional usage chunk) and the non-streamed completion.
 */
final class ChatCompletionChunks {

    private final String id;
    private final String model;
    private final long created;

    ChatCompletionChunks(String id, String model, long created) {
        this.id = id;
        this.model = model;
        this.created = created;
    }

    /** Text split into tokens: words with the space that follows them. */
    static List<String> tokens(String text) {
        List<String> out = new ArrayList<>();
        for (String t : text.split("(?<= )")) {
            if (!t.isEmpty()) {
                out.add(t);
            }
        }
        return out;
    }

    /** A deterministic token estimate: words, for prompts and answers alike. */
    static int count(String text) {
        String t = text.trim();
        return t.isEmpty() ? 0 : t.split("\\s+").length;
    }

    List<String> stream(SimulatedReply reply, int promptTokens, boolean usage) {
        List<String> chunks = new ArrayList<>();
        ObjectNode first = JsonCodec.MAPPER.createObjectNode().put("role", "assistant").put("content", "");
        chunks.add(chunk(first, null));
        if (reply.reasoning() != null) {
            for (String t : tokens(reply.reasoning())) {
                chunks.add(chunk(JsonCodec.MAPPER.createObjectNode().put("reasoning_content", t), null));
            }
        }
        for (String t : tokens(reply.text())) {
            chunks.add(chunk(JsonCodec.MAPPER.createObjectNode().put("content", t), null));
        }
        for (int i = 0; i < reply.toolCalls().size(); i++) {
            SimulatedReply.Call c = reply.toolCalls().get(i);
            ObjectNode open = JsonCodec.MAPPER.createObjectNode().put("index", i).put("id", callId(i)).put("type", "function");
            open.putObject("function").put("name", c.name()).put("arguments", "");
            chunks.add(chunk(toolDelta(open), null));
            String args = c.arguments();
            int half = args.length() / 2;
            for (String fragment : new String[] {args.substring(0, half), args.substring(half)}) {
                ObjectNode more = JsonCodec.MAPPER.createObjectNode().put("index", i);
                more.putObject("function").put("arguments", fragment);
                chunks.add(chunk(toolDelta(more), null));
            }
        }
        chunks.add(chunk(JsonCodec.MAPPER.createObjectNode(), reply.callsTools() ? "tool_calls" : "stop"));
        if (usage) {
            ObjectNode u = base();
            u.putArray("choices");
            u.set("usage", usage(promptTokens, completionTokens(reply)));
            chunks.add(u.toString());
        }
        return chunks;
    }

    String completion(SimulatedReply reply, int promptTokens) {
        ObjectNode c = JsonCodec.MAPPER.createObjectNode().put("id", id).put("object", "chat.completion").put("created", created).put("model", model);
        ObjectNode message = JsonCodec.MAPPER.createObjectNode().put("role", "assistant");
        if (reply.callsTools()) {
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            for (int i = 0; i < reply.toolCalls().size(); i++) {
                ObjectNode call = calls.addObject().put("id", callId(i)).put("type", "function");
                call.putObject("function").put("name", reply.toolCalls().get(i).name()).put("arguments", reply.toolCalls().get(i).arguments());
            }
        } else {
            message.put("content", reply.text());
        }
        c.putArray("choices").addObject().put("index", 0).put("finish_reason", reply.callsTools() ? "tool_calls" : "stop").set("message", message);
        c.set("usage", usage(promptTokens, completionTokens(reply)));
        return c.toString();
    }

    private static int completionTokens(SimulatedReply reply) {
        int n = count(reply.text());
        for (SimulatedReply.Call c : reply.toolCalls()) {
            n += count(c.arguments()) + 1;
        }
        return n;
    }

    private String callId(int i) {
        return "call_" + id.substring(Math.max(0, id.length() - 8)) + i;
    }

    private static ObjectNode toolDelta(ObjectNode call) {
        ObjectNode delta = JsonCodec.MAPPER.createObjectNode();
        delta.putArray("tool_calls").add(call);
        return delta;
    }

    private static ObjectNode usage(int prompt, int completion) {
        return JsonCodec.MAPPER.createObjectNode().put("prompt_tokens", prompt).put("completion_tokens", completion).put("total_tokens", prompt + completion);
    }

    private ObjectNode base() {
        return JsonCodec.MAPPER.createObjectNode().put("id", id).put("object", "chat.completion.chunk").put("created", created).put("model", model);
    }

    private String chunk(ObjectNode delta, String finishReason) {
        ObjectNode c = base();
        ObjectNode choice = c.putArray("choices").addObject().put("index", 0);
        choice.set("delta", delta);
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return c.toString();
    }
}
