package io.conduit.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;

/**
 * One JSON-RPC 2.0 request: its id (a string, a number or null), its method and its params (an object). Batches
 * are not taken: A2A sends one call per request.
 */
record JsonRpcCall(JsonNode id, String method, JsonNode params) {

    /** The call in {@code body}, checked; an {@link JsonRpcError#INVALID_REQUEST} when it is not one. */
    static JsonRpcCall of(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: the body must be one JSON-RPC 2.0 request object"
                    + (body != null && body.isArray() ? " (batches are not supported)" : ""));
        }
        JsonNode id = body.get("id");
        if (id == null) {
            id = NullNode.getInstance();
        } else if (!id.isTextual() && !id.isIntegralNumber() && !id.isNull()) {
            throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: id must be a string, an integer or null");
        }
        if (!"2.0".equals(body.path("jsonrpc").asText(null))) {
            throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\"");
        }
        JsonNode method = body.get("method");
        if (method == null || !method.isTextual() || method.asText().isEmpty()) {
            throw new JsonRpcError(JsonRpcError.INVALID_REQUEST, "Invalid Request: method must be a non-empty string");
        }
        JsonNode params = body.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            throw JsonRpcError.invalidParams("params must be an object");
        }
        return new JsonRpcCall(id, method.asText(), params == null || params.isNull() ? null : params);
    }

    /** The id of a body that could not be read as a call (null when it has none readable). */
    static JsonNode idOf(JsonNode body) {
        JsonNode id = body != null && body.isObject() ? body.get("id") : null;
        return id != null && (id.isTextual() || id.isIntegralNumber()) ? id : NullNode.getInstance();
    }

    /** The params, required. */
    JsonNode requireParams() {
        if (params == null) {
            throw JsonRpcError.invalidParams("params are required");
        }
        return params;
    }
}
