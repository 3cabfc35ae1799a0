package io.conduit.runs.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.graph.Channel;
import io.conduit.graph.MessageList;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;

/**
 * State values and node updates as clients read them: each channel through its codec, except chat messages, which
 * take LangChain's shape (what LangGraph clients merge and render).
 */
public final class WireState {

    private WireState() {
    }

    public static ObjectNode values(State state) {
        return values(state, LangChainMessages::toJson);
    }

    /** The state as the thread protocol's {@code values} events carry it (messages normalized, AI content as blocks). */
    public static ObjectNode protocolValues(State state) {
        return values(state, ProtocolJson::message);
    }

    /**
     * A value (an interrupt's or a custom event's payload) as the thread protocol's events carry it, as a tree: a chat
     * message in the protocol's shape, anything else as Jackson writes it (what it cannot write, as its text).
     */
    public static JsonNode protocolValue(Object value) {
        if (value == null) {
            return JsonCodec.MAPPER.nullNode();
        }
        if (value instanceof JsonNode n) {
            return n;
        }
        if (value instanceof ChatMessage m) {
            return ProtocolJson.message(m);
        }
        try {
            return JsonCodec.MAPPER.valueToTree(value);
        } catch (IllegalArgumentException e) {
            return JsonCodec.MAPPER.getNodeFactory().textNode(String.valueOf(value));
        }
    }

    /** The values with chat messages written by {@code messages}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static ObjectNode values(State state, java.util.function.Function<ChatMessage, ? extends JsonNode> messages) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        for (Channel ch : state.schema().channels()) {
            Object v = state.get(ch);
            if (v instanceof MessageList<?> list && (list.isEmpty() || list.get(0) instanceof ChatMessage)) {
                ArrayNode arr = out.putArray(ch.name());
                for (Object m : list) {
                    arr.add(messages.apply((ChatMessage) m));
                }
            } else {
                out.set(ch.name(), tree(ch.valueCodec().encode(v)));
            }
        }
        return out;
    }

    /** {@code {channel: value}}; a channel written several times in one update becomes a list of its writes. */
    public static ObjectNode update(Update update) {
        return update(update, LangChainMessages::toJson);
    }

    /** The update with chat messages written by {@code messages}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static ObjectNode update(Update update, java.util.function.Function<ChatMessage, ? extends JsonNode> messages) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        for (Update.Write w : update.writes()) {
            Channel ch = w.channel();
            JsonNode value = w.value() instanceof ChatMessage m ? messages.apply(m) : tree(ch.writeCodec().encode(w.value()));
            JsonNode before = out.get(ch.name());
            if (before == null) {
                out.set(ch.name(), ch.storesWrites() ? JsonCodec.MAPPER.createArrayNode().add(value) : value);
            } else if (before.isArray() && ch.storesWrites()) {
                ((ArrayNode) before).add(value);
            } else {
                out.set(ch.name(), value);
            }
        }
        return out;
    }

    static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
