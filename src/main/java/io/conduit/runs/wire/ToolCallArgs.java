package io.conduit.runs.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;

/** A tool call's argument text as the formats that show it as JSON read it. */
public final class ToolCallArgs {

    private ToolCallArgs() {
    }

    /**
     * The arguments as JSON (none: an empty object), or null when they are not JSON (an invalid tool call). The
     * model's text, not a log's frame: the clients read the arguments as JSON.
     */
    public static JsonNode parse(String text) {
        if (text == null || text.isBlank()) {
            return JsonCodec.MAPPER.createObjectNode();
        }
        try {
            return JsonCodec.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
