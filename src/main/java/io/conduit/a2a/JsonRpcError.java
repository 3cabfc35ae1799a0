package io.conduit.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.http.ErrorBody;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;

/**
 * A JSON-RPC 2.0 error as A2A answers it: the standard codes and A2A's own, with a message a person reads and, for
 * a refusal of the runs, the Agent Server's {@code {status, code}} as {@code data}. Never a stack trace.
 */
final class JsonRpcError extends RuntimeException {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /** An Agent Server refusal that is none of the above (a busy thread, a limit): its status and code in data. */
    static final int SERVER_ERROR = -32000;
    static final int TASK_NOT_FOUND = -32001;
    static final int TASK_NOT_CANCELABLE = -32002;
    static final int UNSUPPORTED_OPERATION = -32004;

    private final int code;
    private final transient JsonNode data;

    JsonRpcError(int code, String message) {
        this(code, message, null);
    }

    JsonRpcError(int code, String message, JsonNode data) {
        super(message, null, false, false);
        this.code = code;
        this.data = data;
    }

    int code() {
        return code;
    }

    static JsonRpcError invalidParams(String message) {
        return new JsonRpcError(INVALID_PARAMS, "Invalid params: " + message);
    }

    static JsonRpcError taskNotFound(String taskId) {
        return new JsonRpcError(TASK_NOT_FOUND, "Task not found: " + taskId);
    }

    /** Any failure as a JSON-RPC error: the Agent Server's refusals keep their status and code. */
    static JsonRpcError of(Throwable t) {
        if (t instanceof JsonRpcError e) {
            return e;
        }
        ErrorBody body = ErrorBody.of(t);
        ObjectNode data = JsonCodec.MAPPER.createObjectNode().put("status", body.status()).put("code", body.code());
        if (t instanceof InvalidInputException || body.status() == 422 || body.status() == 400) {
            return new JsonRpcError(INVALID_PARAMS, "Invalid params: " + body.detail(), data);
        }
        if (body.status() >= 500) {
            return new JsonRpcError(INTERNAL_ERROR, "Internal error: " + body.detail(), data);
        }
        return new JsonRpcError(SERVER_ERROR, body.detail(), data);
    }

    /** The response: {@code {"jsonrpc":"2.0","id":…,"error":{code, message, data?}}}. */
    String response(JsonNode id) {
        ObjectNode r = JsonCodec.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        r.set("id", id);
        ObjectNode e = r.putObject("error").put("code", code).put("message", getMessage());
        if (data != null) {
            e.set("data", data);
        }
        return r.toString();
    }
}
