package io.conduit.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;

/**
 * State values as the protocol's {@code values} events carry them: messages reduced to {@code {type, content, id,
 * name?, response_metadata?, tool_calls?, tool_call_id?}}, an AI message's text as content blocks, and
 * {@code __interrupt__} left out.
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

    static ObjectNode message(ObjectNode m) {
        ObjectNode o = JsonCodec.MAPPER.createObjectNode();
        String type = m.path("type").asText();
        o.put("type", type);
        JsonNode content = m.get("content");
        if ("ai".equals(type) && content != null && content.isTextual()) {
            ArrayNode blocks = o.putArray("content");
            if (!content.asText().isEmpty()) {
                blocks.addObject().put("type", "text").put("text", content.asText());
            }
        } else {
            o.set("content", content);
        }
        o.set("id", m.get("id"));
        for (String k : new String[]{"name", "tool_call_id", "status"}) {
            if (m.hasNonNull(k)) {
                o.set(k, m.get(k));
            }
        }
        if (m.has("response_metadata")) {
            o.set("response_metadata", m.get("response_metadata"));
        }
        if (m.path("tool_calls").isArray() && !m.get("tool_calls").isEmpty()) {
            o.set("tool_calls", m.get("tool_calls"));
        }
        return o;
    }
}
