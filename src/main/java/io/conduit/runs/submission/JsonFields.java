package io.conduit.runs.submission;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import java.util.Arrays;
import java.util.Map;

/**
 * Fields of a client's JSON body (and query parameters), checked: a wrong type is an {@link InvalidInputException}
 * naming the field, never read as the default ({@code "ten"} is no limit of 10). Absent and null are the default.
 */
public final class JsonFields {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private JsonFields() {
    }

    /** The body itself: absent or null is an empty object; anything but an object is refused ({@code body}). */
    public static JsonNode body(JsonNode body) {
        if (body == null || body.isNull() || body.isMissingNode()) {
            return JsonCodec.MAPPER.createObjectNode();
        }
        if (!body.isObject()) {
            throw new InvalidInputException("body", "must be a JSON object");
        }
        return body;
    }

    /** An object field as a map; absent or null is empty. */
    public static Map<String, Object> object(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return Map.of();
        }
        if (!n.isObject()) {
            throw new InvalidInputException(field, "must be an object");
        }
        return JsonCodec.MAPPER.convertValue(n, MAP);
    }

    /** A string field; absent or null: null. */
    public static String text(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw new InvalidInputException(field, "must be a string");
        }
        return n.textValue();
    }

    /** A string field that is one of {@code choices}; absent or null: {@code dflt}. */
    public static String oneOf(JsonNode body, String field, String dflt, String... choices) {
        String v = text(body, field);
        if (v == null) {
            return dflt;
        }
        if (!Arrays.asList(choices).contains(v)) {
            throw new InvalidInputException(field, "must be one of " + String.join(", ", choices));
        }
        return v;
    }

    /** A whole number from {@code min} to {@code max}; absent or null: {@code dflt}. */
    public static int integer(JsonNode body, String field, int dflt, int min, int max) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < min || n.longValue() > max) {
            throw new InvalidInputException(field, range(min, max));
        }
        return n.intValue();
    }

    /** A query parameter that is a whole number from {@code min} to {@code max}; absent: {@code dflt}. */
    public static int integer(String raw, String field, int dflt, int min, int max) {
        if (raw == null) {
            return dflt;
        }
        long v;
        try {
            v = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInputException(field, range(min, max));
        }
        if (v < min || v > max) {
            throw new InvalidInputException(field, range(min, max));
        }
        return (int) v;
    }

    /** A query parameter that is a flag: {@code 1}, {@code true}, {@code 0} or {@code false}; absent: {@code dflt}. */
    public static boolean flag(String raw, String field, boolean dflt) {
        if (raw == null) {
            return dflt;
        }
        return switch (raw) {
            case "1", "true" -> true;
            case "0", "false" -> false;
            default -> throw new InvalidInputException(field, "must be 0, 1, true or false");
        };
    }

    /** A boolean field; absent or null: {@code dflt}. */
    public static boolean bool(JsonNode body, String field, boolean dflt) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return dflt;
        }
        if (!n.isBoolean()) {
            throw new InvalidInputException(field, "must be true or false");
        }
        return n.booleanValue();
    }

    private static String range(int min, int max) {
        return "must be a whole number from " + min + " to " + max;
    }
}
