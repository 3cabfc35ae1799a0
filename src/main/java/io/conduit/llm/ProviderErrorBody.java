package io.conduit.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Reads the provider's own explanation out of an error body. OpenAI sends {@code {"error":{"message":...}}},
 * Mistral and vLLM {@code {"object":"error","message":...}}, some proxies {@code {"detail":...}} or plain text.
 */
final class ProviderErrorBody {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_RAW = 300;

    private ProviderErrorBody() {
    }

    /** The message, or the body itself (shortened, on one line) when it has no recognisable message. */
    static String message(String body) {
        if (body == null || body.isBlank()) {
            return "";
        }
        try {
            JsonNode root = JSON.readTree(body);
            String found = message(root);
            if (found != null) {
                return found;
            }
        } catch (Exception notJson) {
            // fall through to the raw text
        }
        String oneLine = body.strip().replaceAll("\\s+", " ");
        return oneLine.length() > MAX_RAW ? oneLine.substring(0, MAX_RAW) + "..." : oneLine;
    }

    /** The message of a parsed error object, or null. */
    static String message(JsonNode root) {
        if (root == null || !root.isObject()) {
            return null;
        }
        JsonNode error = root.get("error");
        if (error != null && error.isObject() && error.hasNonNull("message")) {
            return error.get("message").asText();
        }
        if (error != null && error.isTextual()) {
            return error.asText();
        }
        if (root.hasNonNull("message")) {
            return root.get("message").asText();
        }
        if (root.hasNonNull("detail")) {
            return root.get("detail").asText();
        }
        return null;
    }

    /** The status-like code of a parsed error object ({@code error.code} or {@code code}), or null. */
    static Integer code(JsonNode root) {
        if (root == null || !root.isObject()) {
            return null;
        }
        JsonNode error = root.get("error");
        JsonNode code = error != null && error.isObject() ? error.get("code") : root.get("code");
        if (code != null && code.canConvertToInt() && code.isNumber()) {
            return code.asInt();
        }
        if (code != null && code.isTextual() && code.asText().matches("\\d{3}")) {
            return Integer.parseInt(code.asText());
        }
        return null;
    }
}
