package io.conduit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Carries a provider's in-stream error from {@link OpenAiChunkRewrite} to {@link StreamAttempt} as a text delta
 * with a marker no model produces. Needed because the Quarkus REST client drops an exception thrown while reading an
 * SSE event (it goes to Vert.x's uncaught handler and the stream carries on), so the interceptor cannot fail the
 * stream itself; the delta reaches the handler of exactly the call it belongs to, on the same thread.
 */
final class InBandError {

    private static final String MARKER = "\u0000conduit:stream-error\u0000";
    private static final ObjectMapper JSON = new ObjectMapper();

    private InBandError() {
    }

    static String encode(String message, Integer code) {
        ObjectNode error = JSON.createObjectNode().put("message", message);
        if (code != null) {
            error.put("code", code);
        }
        return MARKER + error;
    }

    /** The error a text delta carries, or null for ordinary text. */
    static ProviderStreamError decode(String text) {
        if (text == null || !text.startsWith(MARKER)) {
            return null;
        }
        try {
            JsonNode error = JSON.readTree(text.substring(MARKER.length()));
            Integer code = error.hasNonNull("code") ? error.get("code").asInt() : null;
            return new ProviderStreamError(error.path("message").asText(), code);
        } catch (Exception e) {
            return new ProviderStreamError("unreadable error in the stream", null);
        }
    }
}
