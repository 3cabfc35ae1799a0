package io.conduit.runs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import java.util.Map;

/** Fields of a client's JSON body, checked: a wrong type is an {@link InvalidInputException} naming the field. */
public final class JsonFields {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private JsonFields() {
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
}
