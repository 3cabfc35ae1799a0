package io.conduit.agui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;

/**
 * A thread's messages as the protocol log's values carry them (LangChain's: human, ai with content blocks and
 * {@code tool_calls}, tool, system) in AG-UI's shape: user, assistant ({@code content} only when there is text,
 * {@code toolCalls} with their arguments as JSON text), tool, system. Optional fields are omitted, never null.
 */
final class AgUiMessages {

    private AgUiMessages() {
    }

    static ArrayNode of(JsonNode messages) {
        ArrayNode out = JsonCodec.MAPPER.createArrayNode();
        if (!messages.isArray()) {
            return out;
        }
        for (JsonNode m : messages) {
            String id = m.path("id").asText();
            switch (m.path("type").asText()) {
                case "human" -> out.addObject().put("id", id).put("role", "user").put("content", text(m.get("content")));
                case "system" -> out.addObject().put("id", id).put("role", "system").put("content", text(m.get("content")));
                case "tool" -> {
                    ObjectNode t = out.addObject().put("id", id).put("role", "tool").put("content", text(m.get("content")))
                            .put("toolCallId", m.path("tool_call_id").asText());
                    if ("error".equals(m.path("status").asText())) {
                        t.put("error", text(m.get("content")));
                    }
                }
                case "ai" -> assistant(out.addObject().put("id", id).put("role", "assistant"), m);
                default -> {
                    // remove markers and kinds AG-UI has no message for
                }
            }
        }
        return out;
    }

    private static void assistant(ObjectNode a, JsonNode m) {
        String text = text(m.get("content"));
        if (!text.isEmpty()) {
            a.put("content", text);
        }
        JsonNode calls = m.path("tool_calls");
        if (calls.isArray() && !calls.isEmpty()) {
            ArrayNode toolCalls = a.putArray("toolCalls");
            for (JsonNode c : calls) {
                ObjectNode call = toolCalls.addObject().put("id", c.path("id").asText()).put("type", "function");
                call.putObject("function").put("name", c.path("name").asText())
                        .put("arguments", c.has("args") ? c.get("args").toString() : "{}");
            }
        }
    }

    /** A content string, or the text blocks of a content list joined (reasoning and tool-call blocks left out). */
    static String text(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder b = new StringBuilder();
        for (JsonNode block : content) {
            if ("text".equals(block.path("type").asText())) {
                b.append(block.path("text").asText());
            }
        }
        return b.toString();
    }
}
