package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.graph.Channel;
import io.conduit.graph.State;
import io.conduit.graph.Update;

/**
 * State and updates as JSON for clients, each value through its channel's codec, so it reads exactly as it is
 * stored (message type ids included).
 */
final class StateJson {

    private StateJson() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static ObjectNode of(State state) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        for (Channel ch : state.schema().channels()) {
            out.set(ch.name(), tree(ch.valueCodec().encode(state.get(ch))));
        }
        return out;
    }

    /** {@code {channel: value}}, or {@code {channel: [writes]}} when a step wrote a channel several times. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static ObjectNode of(Update update) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        for (Update.Write w : update.writes()) {
            Channel ch = w.channel();
            JsonNode value = tree(ch.writeCodec().encode(w.value()));
            JsonNode before = out.get(ch.name());
            if (before == null) {
                out.set(ch.name(), value);
            } else if (before.isArray() && ch.storesWrites()) {
                ((com.fasterxml.jackson.databind.node.ArrayNode) before).add(value);
            } else {
                out.set(ch.name(), ch.storesWrites() ? JsonCodec.MAPPER.createArrayNode().add(before).add(value) : value);
            }
        }
        if (!update.goTo().isEmpty()) {
            out.set("__goto__", JsonCodec.MAPPER.valueToTree(update.goTo()));
        }
        return out;
    }

    private static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
