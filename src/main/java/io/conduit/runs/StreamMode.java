package io.conduit.runs;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * An Agent Server stream mode ({@code stream_mode}): which of a run's events a client wants. Each serializes to its
 * wire name, which is also the {@code event:} name of its SSE events, except the two of chat messages:
 * {@code messages-tuple} sends {@code messages} events ({@code [message chunk, metadata]}), and {@code messages}
 * sends LangGraph's older {@code messages/metadata}, {@code messages/partial} and {@code messages/complete}.
 */
public enum StreamMode {
    VALUES("values"), UPDATES("updates"), MESSAGES_TUPLE("messages-tuple"), MESSAGES("messages"), CUSTOM("custom"),
    EVENTS("events"), DEBUG("debug"), TASKS("tasks"), CHECKPOINTS("checkpoints");

    /** The events of {@link #MESSAGES}: a message's metadata when it first shows, the message so far, the message whole. */
    public static final List<String> MESSAGE_EVENTS = List.of("messages/metadata", "messages/partial", "messages/complete");

    /** Every name a client may send, for the error that refuses another. */
    private static final List<String> KNOWN = Stream.of(values()).map(StreamMode::wire).toList();

    private final String wire;

    StreamMode(String wire) {
        this.wire = wire;
    }

    @JsonValue
    public String wire() {
        return wire;
    }

    /** The mode a client's name stands for; an unknown name is refused (422, {@code stream_mode}). */
    public static StreamMode of(String name) {
        for (StreamMode m : values()) {
            if (m.wire.equals(name)) {
                return m;
            }
        }
        throw unknown(JsonCodec.MAPPER.getNodeFactory().textNode(name));
    }

    /**
     * A request's {@code stream_mode}: a mode, a list of modes, or a list JSON-encoded in a string (how the SDK sends
     * query parameters); absent or null: {@code values}. In the order asked, each once.
     */
    public static List<StreamMode> parse(JsonNode n) {
        if (n == null || n.isNull()) {
            return List.of(VALUES);
        }
        JsonNode list = n;
        if (n.isTextual() && n.asText().startsWith("[")) {
            try {
                list = JsonCodec.MAPPER.readTree(n.asText());
            } catch (Exception e) {
                throw new InvalidInputException("stream_mode", "is not a mode or a list of modes");
            }
        }
        List<StreamMode> out = new ArrayList<>();
        for (JsonNode m : list.isArray() ? list : List.of(list)) {
            if (!m.isTextual()) {
                throw unknown(m);
            }
            StreamMode mode = of(m.asText());
            if (!out.contains(mode)) {
                out.add(mode);
            }
        }
        return List.copyOf(out);
    }

    /** The names of the events of {@code modes}: what a subscriber compares its events' names with. */
    public static Set<String> eventNames(Collection<StreamMode> modes) {
        Set<String> out = new HashSet<>();
        for (StreamMode m : modes) {
            switch (m) {
                case MESSAGES_TUPLE -> out.add("messages");
                case MESSAGES -> out.addAll(MESSAGE_EVENTS);
                default -> out.add(m.wire);
            }
        }
        return out;
    }

    private static InvalidInputException unknown(JsonNode m) {
        return new InvalidInputException("stream_mode", "unknown mode " + m + "; known: " + KNOWN);
    }
}
