package io.conduit.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;

/**
 * JSON-RPC 2.0 as MCP carries it over HTTP: one message per POST (MCP dropped batches in 2025-06-18), read into a
 * {@link Message}; the answers written. A message that is not JSON-RPC is refused with the specification's codes.
 */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;

    private JsonRpc() {
    }

    /**
     * One message from the client. A request has an {@code id} and a method; a notification a method and no id; a
     * response (to a request of the server's, which this server never sends) an id and a result or an error.
     *
     * @param id     the request's id as sent (a string or a number), or null
     * @param method the method, or null for a response
     * @param params the params, an object, or null
     */
    record Message(JsonNode id, String method, JsonNode params) {

        boolean isRequest() {
            return id != null && method != null;
        }

        /** An object's params, or an empty one. */
        ObjectNode paramsObject() {
            return params instanceof ObjectNode o ? o : JsonCodec.MAPPER.createObjectNode();
        }
    }

    /** A refusal, answered as a JSON-RPC error with {@code status} (200 for a request read as JSON-RPC). */
    static final class Failure extends RuntimeException {
        final int code;
        final int status;
        final transient JsonNode id;

        Failure(int code, String message, int status, JsonNode id) {
            super(message, null, false, false);
            this.code = code;
            this.status = status;
            this.id = id;
        }

        static Failure invalidParams(String message) {
            return new Failure(INVALID_PARAMS, message, 200, null);
        }
    }

    /** Reads one message, or throws a {@link Failure} with status 400. */
    static Message read(JsonNode body) {
        if (body == null || body.isArray()) {
            throw new Failure(INVALID_REQUEST, "Invalid request: send one JSON-RPC message per request (batches are not supported).", 400, null);
        }
        if (!body.isObject()) {
            throw new Failure(INVALID_REQUEST, "Invalid request: a JSON-RPC message is an object.", 400, null);
        }
        JsonNode id = body.get("id");
        if (id != null && !(id.isTextual() || id.isIntegralNumber())) {
            throw new Failure(INVALID_REQUEST, "Invalid request: id must be a string or an integer.", 400, null);
        }
        if (!"2.0".equals(body.path("jsonrpc").textValue())) {
            throw new Failure(INVALID_REQUEST, "Invalid request: jsonrpc must be \"2.0\".", 400, id);
        }
        JsonNode method = body.get("method");
        if (method == null) {
            if (id != null && (body.has("result") || body.has("error"))) {
                return new Message(id, null, null); // a response: this server asks nothing, so it is only acknowledged
            }
            throw new Failure(INVALID_REQUEST, "Invalid request: method is missing.", 400, id);
        }
        if (!method.isTextual() || method.textValue().isEmpty()) {
            throw new Failure(INVALID_REQUEST, "Invalid request: method must be a non-empty string.", 400, id);
        }
        JsonNode params = body.get("params");
        if (params != null && !params.isObject() && !params.isNull()) {
            throw new Failure(INVALID_PARAMS, "Invalid params: params must be an object.", 400, id);
        }
        return new Message(id, method.textValue(), params == null || params.isNull() ? null : params);
    }

    static String result(JsonNode id, JsonNode result) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id);
        out.set("result", result);
        return out.toString();
    }

    static String error(JsonNode id, int code, String message) {
        ObjectNode out = JsonCodec.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        out.set("id", id == null ? JsonCodec.MAPPER.nullNode() : id);
        out.putObject("error").put("code", code).put("message", message);
        return out.toString();
    }
}
