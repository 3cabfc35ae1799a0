package io.conduit.runs.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.RemoveMessage;
import io.conduit.agent.message.SystemMessage;
import io.conduit.agent.message.ToolCall;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.kernel.JsonCodec;

/**
 * JSON as the thread protocol writes it: strings quoted by hand into a builder (the per-token path makes no tree), any
 * other value through Jackson, and chat messages in the protocol's normalized shape ({@code {type, content, id, name?,
 * tool_calls?, response_metadata?}}, an AI message's content as content blocks), which the SDK's
 * {@code StreamController} merges with the streamed messages by id.
 */
public final class ProtocolJson {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private ProtocolJson() {
    }

    /** Appends {@code s} as a JSON string ({@code null} when it is null); the output never holds a line break. */
    public static StringBuilder quote(StringBuilder b, String s) {
        if (s == null) {
            return b.append("null");
        }
        b.append('"');
        int from = 0;
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c != 0x2028 && c != 0x2029) {
                continue;
            }
            b.append(s, from, i);
            from = i + 1;
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf]).append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
            }
        }
        return b.append(s, from, n).append('"');
    }

    /** Any value (a JSON tree, a map, a list, a string, a number) as single-line JSON. */
    public static String write(Object value) {
        if (value instanceof JsonNode n) {
            return n.toString();
        }
        if (value instanceof ChatMessage m) {
            return message(m).toString();
        }
        try {
            return JsonCodec.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            return quote(new StringBuilder(), String.valueOf(value)).toString();
        }
    }

    /** A chat message in the protocol's normalized shape. */
    public static ObjectNode message(ChatMessage m) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        switch (m) {
            case UserMessage u -> o.put("type", "human").put("content", u.content());
            case SystemMessage s -> o.put("type", "system").put("content", s.content());
            case ToolMessage t -> o.put("type", "tool").put("content", t.content()).put("tool_call_id", t.toolCallId())
                    .put("name", t.name()).put("status", t.error() ? "error" : "success");
            case AssistantMessage a -> {
                o.put("type", "ai");
                ArrayNode blocks = o.putArray("content");
                if (a.reasoning() != null && !a.reasoning().isEmpty()) {
                    blocks.addObject().put("type", "reasoning").put("reasoning", a.reasoning());
                }
                if (a.content() != null && !a.content().isEmpty()) {
                    blocks.addObject().put("type", "text").put("text", a.content());
                }
                if (!a.toolCalls().isEmpty()) {
                    ArrayNode calls = o.putArray("tool_calls");
                    for (ToolCall c : a.toolCalls()) {
                        JsonNode args = ToolCallArgs.parse(c.arguments());
                        ObjectNode call = JsonCodec.MAPPER.createObjectNode().put("type", "tool_call").put("id", c.id()).put("name", c.name());
                        call.set("args", args == null ? JsonCodec.MAPPER.createObjectNode() : args);
                        blocks.add(call);
                        calls.add(call.deepCopy());
                    }
                }
                if (a.stage() != null) {
                    o.put("name", a.stage());
                }
                o.putObject("response_metadata").put("output_version", "v1").put("finish_reason", a.hasToolCalls() ? "tool_calls" : "stop");
                UsageJson.put(o, "usage_metadata", a.usage());
            }
            case RemoveMessage r -> o.put("type", "remove").put("content", "");
        }
        o.put("id", m.id());
        return o;
    }
}
