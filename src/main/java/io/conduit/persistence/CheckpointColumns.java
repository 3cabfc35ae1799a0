package io.conduit.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The checkpoint tables' column values, both ways: ids as {@code uuid}, channel values as the JSON text their codecs
 * produce (kept as given, never re-encoded), the next tasks and the metadata. A column that does not decode fails
 * closed, naming the thread.
 */
final class CheckpointColumns {

    /** Encoding version of the JSON columns the checkpointer writes and reads. */
    static final short FORMAT = 1;

    private CheckpointColumns() {
    }

    // ---- JSON columns

    /** {@code {"channel": <value json>, ...}}, or null when there is nothing. */
    static String encodeChannels(Map<String, Stored> values) {
        if (values.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder(128).append('{');
        for (Map.Entry<String, Stored> e : values.entrySet()) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            sb.append(json(e.getKey())).append(':').append(e.getValue().json());
        }
        return sb.append('}').toString();
    }

    static Map<String, Stored> decodeChannels(String json, String threadId) {
        if (json == null) {
            return Map.of();
        }
        Map<String, Stored> out = new LinkedHashMap<>();
        tree(json, threadId, "channel values").fields().forEachRemaining(e -> out.put(e.getKey(), Stored.json(e.getValue().toString())));
        return out;
    }

    /** Node names, comma-separated (node names cannot contain commas): a few bytes where JSON took dozens. */
    static String nextNodes(List<TaskSpec> next) {
        StringBuilder sb = new StringBuilder(32);
        for (TaskSpec t : next) {
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(t.node());
        }
        return sb.toString();
    }

    /** {@code [{"i": position, "input": <json>}]} for the tasks that carry an input ({@code Send}); null when none do. */
    static String nextInputs(List<TaskSpec> next) {
        StringBuilder sb = null;
        for (int i = 0; i < next.size(); i++) {
            Stored input = next.get(i).input();
            if (input != null) {
                sb = sb == null ? new StringBuilder("[") : sb.append(',');
                sb.append("{\"i\":").append(i).append(",\"input\":").append(input.json()).append('}');
            }
        }
        return sb == null ? null : sb.append(']').toString();
    }

    static List<TaskSpec> decodeNext(String nodes, String inputs, String threadId) {
        if (nodes == null) {
            return List.of();
        }
        String[] names = nodes.split(",");
        Stored[] given = new Stored[names.length];
        if (inputs != null) {
            for (JsonNode t : tree(inputs, threadId, "next task inputs")) {
                given[t.get("i").asInt()] = Stored.json(t.get("input").toString());
            }
        }
        List<TaskSpec> out = new ArrayList<>(names.length);
        for (int i = 0; i < names.length; i++) {
            out.add(new TaskSpec(names[i], given[i]));
        }
        return Collections.unmodifiableList(out);
    }

    static Map<String, String> decodeMetadata(String json, String threadId) {
        Map<String, String> out = new LinkedHashMap<>();
        tree(json, threadId, "metadata").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    static JsonNode tree(String json, String threadId, String what) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("thread " + threadId + ": stored " + what + " are not valid JSON", e);
        }
    }

    static String json(Object value) {
        try {
            return JsonCodec.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    // ---- ids

    /** A checkpoint or run id as a parameter; the engine's are UUIDs, anything else is a caller's bug. */
    static UUID uuid(String id) {
        UUID u = parseUuid(id);
        if (u == null) {
            throw new IllegalArgumentException("checkpoint and run ids are UUIDs: " + id);
        }
        return u;
    }

    /** An id as a lookup key: null when it is no UUID, so no row can have it. */
    static UUID parseUuid(String id) {
        if (id == null || id.length() != 36) {
            return null;
        }
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
