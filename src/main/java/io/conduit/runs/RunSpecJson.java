package io.conduit.runs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link RunSpec} to and from JSON: read from a client's run request (checked, 422 naming the field), and to and from
 * the run record's {@code kwargs} (stored in that shape, and answered as it by the API, whose clients read it). What a
 * record holds reads back into the same spec, and a spec writes back the same object, a field not given staying out.
 */
public final class RunSpecJson {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private RunSpecJson() {
    }

    /**
     * The fields of a run request body, checked. The server's own fields ({@code graph_id}, {@code temporary}) are not
     * taken from the client: {@link RunSpec#served} sets them; {@code assistant_id} is the run record's, not kept here.
     * No {@code stream_mode} is {@code values}, recorded as such.
     */
    public static RunSpec fromRequest(JsonNode body) {
        Fields f = read(body, true);
        return f.spec(f.streamModes == null ? StreamMode.parse(null) : f.streamModes);
    }

    /** A stored record's {@code kwargs}; what was not stored is not given (a record older than a field lacks it). */
    public static RunSpec fromKwargs(Map<String, Object> kwargs) {
        if (kwargs == null || kwargs.isEmpty()) {
            return RunSpec.NONE;
        }
        Fields f = read(JsonCodec.MAPPER.valueToTree(kwargs), false);
        return f.spec(f.streamModes);
    }

    /** The spec as the record's {@code kwargs}: plain JSON values (maps, lists, strings, numbers, booleans, nulls). */
    public static Map<String, Object> toKwargs(RunSpec s) {
        Map<String, Object> k = new LinkedHashMap<>();
        putIf(k, "graph_id", s.graphId());
        if (s.streamModes() != null) {
            k.put("stream_mode", s.streamModes().stream().map(StreamMode::wire).toList());
        }
        json(k, "input", s.input());
        json(k, "command", s.command());
        putIf(k, "config", s.config());
        json(k, "context", s.context());
        putIf(k, "checkpoint_id", s.checkpointId());
        json(k, "checkpoint", s.checkpoint());
        json(k, "interrupt_before", s.interruptBefore());
        json(k, "interrupt_after", s.interruptAfter());
        putIf(k, "durability", s.durability() == null ? null : s.durability().wire());
        if (s.temporary()) {
            k.put("temporary", true);
        }
        putIf(k, "on_completion", s.onCompletion() == null ? null : s.onCompletion().wire());
        k.putAll(s.others());
        return k;
    }

    /**
     * The spec as a store gives it back: through its JSON text ({@link JsonMaps}), so the in-memory stores hold what
     * Postgres would, and refuse alike what it cannot keep.
     */
    public static RunSpec copy(RunSpec s) {
        return fromKwargs(JsonMaps.copy(toKwargs(s)));
    }

    /** The fields as read, before the stream modes' default is settled. */
    private static final class Fields {
        String graphId;
        List<StreamMode> streamModes;
        JsonNode input;
        JsonNode command;
        Map<String, Object> config;
        JsonNode context;
        String checkpointId;
        JsonNode checkpoint;
        JsonNode interruptBefore;
        JsonNode interruptAfter;
        RunSpec.Durability durability;
        boolean temporary;
        RunSpec.OnCompletion onCompletion;
        final Map<String, Object> others = new LinkedHashMap<>();

        RunSpec spec(List<StreamMode> modes) {
            return new RunSpec(graphId, modes, input, command, config, context, checkpointId, checkpoint, interruptBefore,
                    interruptAfter, durability, temporary, onCompletion, others);
        }
    }

    private static Fields read(JsonNode k, boolean fromClient) {
        Fields f = new Fields();
        for (Iterator<Map.Entry<String, JsonNode>> it = k.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            switch (e.getKey()) {
                case "assistant_id" -> {
                    if (!fromClient) {
                        f.others.put(e.getKey(), plain(v));
                    }
                }
                case "graph_id" -> {
                    if (!fromClient) {
                        f.graphId = v.isTextual() ? v.textValue() : null;
                    }
                }
                case "temporary" -> {
                    if (!fromClient) {
                        f.temporary = v.isBoolean() && v.booleanValue(); // as read before: anything but true is not temporary
                    }
                }
                case "stream_mode" -> f.streamModes = StreamMode.parse(v);
                case "input" -> f.input = v;
                case "command" -> f.command = v;
                case "config" -> f.config = object(v, "config");
                case "context" -> f.context = checkedObject(v, "context");
                case "checkpoint_id" -> f.checkpointId = string(v, "checkpoint_id");
                case "checkpoint" -> f.checkpoint = v;
                case "interrupt_before" -> f.interruptBefore = v;
                case "interrupt_after" -> f.interruptAfter = v;
                case "durability" -> f.durability = choice(v, "durability", RunSpec.Durability.class, "async, sync, exit");
                case "on_completion" -> f.onCompletion = choice(v, "on_completion", RunSpec.OnCompletion.class, "delete, keep");
                default -> f.others.put(e.getKey(), plain(v));
            }
        }
        if (f.checkpointId == null && f.checkpoint != null) {
            string(f.checkpoint.get("checkpoint_id"), "checkpoint.checkpoint_id");
        }
        return f;
    }

    /** An object field as a map; null: not given. */
    private static Map<String, Object> object(JsonNode v, String field) {
        return checkedObject(v, field).isNull() ? null : JsonCodec.MAPPER.convertValue(v, MAP);
    }

    /** An object field, or null, as given. */
    private static JsonNode checkedObject(JsonNode v, String field) {
        if (!v.isNull() && !v.isObject()) {
            throw new InvalidInputException(field, "must be an object");
        }
        return v;
    }

    private static String string(JsonNode v, String field) {
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidInputException(field, "must be a string");
        }
        return v.textValue();
    }

    private static <E extends Enum<E>> E choice(JsonNode v, String field, Class<E> type, String known) {
        String name = string(v, field);
        if (name == null) {
            return null;
        }
        for (E c : type.getEnumConstants()) {
            if (c.name().toLowerCase(Locale.ROOT).equals(name)) {
                return c;
            }
        }
        throw new InvalidInputException(field, "must be one of " + known);
    }

    private static Object plain(JsonNode v) {
        return JsonCodec.MAPPER.convertValue(v, Object.class);
    }

    private static void json(Map<String, Object> k, String field, JsonNode v) {
        if (v != null) {
            k.put(field, plain(v));
        }
    }

    private static void putIf(Map<String, Object> k, String field, Object v) {
        if (v != null) {
            k.put(field, v);
        }
    }
}
