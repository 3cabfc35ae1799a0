package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;

/**
 * State values as the protocol's {@code values} events carry them ({@code ProtocolJson.message} in runs, which is not
 * public): messages reduced to {@code {type, content, id, name?, response_metadata?, tool_calls?, tool_call_id?}}, an
 * AI message's reasoning, text and tool calls as content blocks, and {@code __interrupt__} left out.
 */
final class ProtocolValues {

    private ProtocolValues() {
    }

    static ObjectNode of(ObjectNode wireValues) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        wireValues.fields().forEachRemaining(e -> {
            if (e.getKey().equals("__interrupt__")) {
                return;
            }
            JsonNode v = e.getValue();
            if (v.isArray() && !v.isEmpty() && v.get(0).isObject() && v.get(0).has("type") && v.get(0).has("content")) {
                ArrayNode messages = out.putArray(e.getKey());
                v.forEach(m -> messages.add(message((ObjectNode) m)));
            } else {
                out.set(e.getKey(), v);
            }
        });
        return out;
    }

    /** One LangChain-shaped message (as {@code WireState.values} writes it) in the shape of the protocol's events. */
    static ObjectNode message(ObjectNode m) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        String type = m.path("type").asText();
        o.put("type", type);
        if (!"ai".equals(type)) {
            o.set("content", m.get("content"));
            for (String k : new String[]{"tool_call_id", "name", "status"}) {
                if (m.hasNonNull(k)) {
                    o.set(k, m.get(k));
                }
            }
            o.set("id", m.get("id"));
            return o;
        }
        ArrayNode blocks = o.putArray("content");
        String reasoning = m.path("additional_kwargs").path("reasoning_content").asText("");
        if (!reasoning.isEmpty()) {
            blocks.addObject().put("type", "reasoning").put("reasoning", reasoning);
        }
        JsonNode content = m.get("content");
        if (content != null && content.isTextual() && !content.asText().isEmpty()) {
            blocks.addObject().put("type", "text").put("text", content.asText());
        }
        JsonNode calls = m.get("tool_calls");
        boolean hasCalls = calls != null && calls.isArray() && !calls.isEmpty();
        if (hasCalls) {
            ArrayNode list = o.putArray("tool_calls");
            for (JsonNode c : calls) {
                ObjectNode call = JsonCodec.MAPPER.createObjectNode().put("type", "tool_call");
                call.set("id", c.get("id"));
                call.set("name", c.get("name"));
                call.set("args", c.hasNonNull("args") ? c.get("args") : JsonCodec.MAPPER.createObjectNode());
                blocks.add(call);
                list.add(call.deepCopy());
            }
        }
        if (m.hasNonNull("name")) {
            o.set("name", m.get("name"));
        }
        o.putObject("response_metadata").put("output_version", "v1").put("finish_reason", hasCalls ? "tool_calls" : "stop");
        o.set("id", m.get("id"));
        return o;
    }
}
