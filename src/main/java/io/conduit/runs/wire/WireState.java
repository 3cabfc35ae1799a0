package io.conduit.runs.wire;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.agent.message.ChatMessage;
import io.conduit.graph.Channel;
import io.conduit.graph.MessageList;
import io.conduit.graph.State;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
            if (chatMessages(v)) {
                ArrayNode arr = out.putArray(ch.name());
                for (Object m : (MessageList<?>) v) {
                    arr.add(messages.apply((ChatMessage) m));
                }
            } else {
                out.set(ch.name(), tree(ch.valueCodec().encode(v)));
            }
        }
        return out;
    }

    /** {@code {channel: value}}; a channel that stores its writes gives the list of this update's writes. */
    public static ObjectNode update(Update update) {
        return update(update, LangChainMessages::toJson);
    }

    /** The update with chat messages written by {@code messages}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static ObjectNode update(Update update, java.util.function.Function<ChatMessage, ? extends JsonNode> messages) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode();
        writesByChannel(update).forEach((channel, values) -> {
            Channel ch = channel;
            ArrayNode all = ch.storesWrites() ? out.putArray(ch.name()) : null;
            for (Object value : values) {
                JsonNode node = value instanceof ChatMessage m ? messages.apply(m) : tree(ch.writeCodec().encode(value));
                if (all != null) {
                    all.add(node);
                } else {
                    out.set(ch.name(), node);
                }
            }
        });
        return out;
    }

    /**
     * {@link #values(State, java.util.function.Function)} as JSON text, written straight: each channel's codec output
     * goes in as its codec wrote it, not parsed into a tree and written again (a values event per step carries the
     * whole state).
     */
    public static String valuesJson(State state, java.util.function.Function<ChatMessage, ? extends JsonNode> messages) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = JsonCodec.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            for (Channel ch : state.schema().channels()) {
                Object v = state.get(ch);
                g.writeFieldName(ch.name());
                if (chatMessages(v)) {
                    g.writeStartArray();
                    for (Object m : (MessageList<?>) v) {
                        g.writeTree(messages.apply((ChatMessage) m));
                    }
                    g.writeEndArray();
                } else {
                    g.writeRawValue(encoded(ch.valueCodec(), v));
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /**
     * {@link #update(Update, java.util.function.Function)} as JSON text, written straight as {@link #valuesJson} is:
     * channels in the order first written, a channel that stores its writes as the list of them, any other as its
     * last write.
     */
    public static String updateJson(Update update, java.util.function.Function<ChatMessage, ? extends JsonNode> messages) {
        StringWriter out = new StringWriter(128);
        try (JsonGenerator g = JsonCodec.MAPPER.createGenerator(out)) {
            g.writeStartObject();
            for (Map.Entry<Channel<?, ?>, List<Object>> e : writesByChannel(update).entrySet()) {
                Channel ch = e.getKey();
                g.writeFieldName(ch.name());
                if (ch.storesWrites()) {
                    g.writeStartArray();
                }
                for (Object value : e.getValue()) {
                    if (value instanceof ChatMessage m) {
                        g.writeTree(messages.apply(m));
                    } else {
                        g.writeRawValue(encoded(ch.writeCodec(), value));
                    }
                }
                if (ch.storesWrites()) {
                    g.writeEndArray();
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Whether a channel's value is a list of chat messages (an empty list is taken for one): they take LangChain's shape. */
    private static boolean chatMessages(Object value) {
        return value instanceof MessageList<?> list && (list.isEmpty() || list.get(0) instanceof ChatMessage);
    }

    /**
     * An update's writes by channel, in the order first written: all of them for a channel that stores its writes,
     * the last for any other (what the update leaves in it).
     */
    private static Map<Channel<?, ?>, List<Object>> writesByChannel(Update update) {
        Map<Channel<?, ?>, List<Object>> byChannel = new LinkedHashMap<>();
        for (Update.Write w : update.writes()) {
            List<Object> writes = byChannel.computeIfAbsent(w.channel(), c -> new ArrayList<>(1));
            if (!w.channel().storesWrites()) {
                writes.clear();
            }
            writes.add(w.value());
        }
        return byChannel;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String encoded(io.conduit.kernel.Codec codec, Object value) {
        return codec.encode(value);
    }

    static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
