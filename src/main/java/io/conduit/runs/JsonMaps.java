package io.conduit.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import io.conduit.checkpoint.StorableText;
import io.conduit.kernel.JsonCodec;
import java.util.Map;

/**
 * JSON objects of the run, thread and assistant records as text and back. The in-memory stores keep a JSON round
 * trip of what they are given too, so they hold the same values (and number types) as the Postgres ones, and a
 * caller that mutates its map afterwards changes nothing stored; and both refuse alike what Postgres cannot keep
 * ({@link StorableText}), whoever wrote it.
 */
public final class JsonMaps {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private JsonMaps() {
    }

    /** The object as JSON text; an {@link InvalidInputException} naming the place (within it) of text no store can keep. */
    public static String encode(Map<String, Object> value) {
        StorableText.Problem p = StorableText.find(value, "");
        if (p != null) {
            throw new InvalidInputException(p.path().isEmpty() ? "object" : p.path(), p.reason());
        }
        try {
            return JsonCodec.MAPPER.writeValueAsString(value == null ? Map.of() : value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + e.getOriginalMessage(), e);
        }
    }

    public static Map<String, Object> decode(String json) {
        if (json == null) {
            return Map.of();
        }
        try {
            Map<String, Object> out = JsonCodec.MAPPER.readValue(json, MAP);
            return out == null ? Map.of() : out;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON object is not valid: " + e.getOriginalMessage(), e);
        }
    }

    public static Map<String, Object> copy(Map<String, Object> value) {
        return decode(encode(value));
    }
}
