package io.conduit.completions;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.graph.GraphException;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.delivery.ReplicaShuttingDownException;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.submission.RunSubmission;
import org.jboss.logging.Logger;

/**
 * An error as OpenAI answers one, {@code {"error": {"message", "type", "param", "code"}}}, with its HTTP status: the
 * shape every OpenAI client turns into its {@code APIError} (status, code, type, param). One mapping from the failures
 * of a request to it; a failure nobody expected says no more than that the server failed (the log says why).
 */
record OpenAiError(int status, String type, String code, String param, String message, long retryAfterSeconds) {

    private static final Logger LOG = Logger.getLogger(OpenAiError.class);

    static final String INVALID_REQUEST = "invalid_request_error";

    /** A request the client got wrong (400), naming the parameter. */
    static OpenAiError invalid(String param, String code, String message) {
        return new OpenAiError(400, INVALID_REQUEST, code, param, message, 0);
    }

    static OpenAiError modelNotFound(String model) {
        return new OpenAiError(404, INVALID_REQUEST, "model_not_found", "model",
                "The model `" + model + "` does not exist: a model here is an assistant (GET /v1/models lists them)", 0);
    }

    static OpenAiError of(Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return switch (e) {
            case BadCompletionRequest b -> b.error();
            case InvalidInputException i -> invalid(param(i.field()), "invalid_value", i.getMessage());
            case RunSubmission.BadRequest b -> invalid(null, "invalid_value", b.getMessage());
            case NotFoundException n -> new OpenAiError(404, INVALID_REQUEST, "not_found", null, n.getMessage(), 0);
            case ThreadGraphMismatchException m -> new OpenAiError(409, INVALID_REQUEST, "thread_graph_mismatch", "model", m.getMessage(), 0);
            case ThreadBusyException b -> new OpenAiError(409, INVALID_REQUEST, "thread_busy", null, b.getMessage(), 0);
            case LimitExceededException l -> new OpenAiError(429, "rate_limit_error", l.code(), null, l.getMessage(), l.retryAfterSeconds());
            case ReplicaShuttingDownException s -> new OpenAiError(503, "server_error", ServerShutdown.CODE, null,
                    "This server is shutting down and rolled back the run of this request: send it again and another one answers it.",
                    (int) (ServerShutdown.RETRY_MILLIS / 1000));
            case GraphException g when g.code() == GraphException.Code.INVALID_REQUEST || g.code() == GraphException.Code.NO_PENDING_INTERRUPT
                    || g.code() == GraphException.Code.CONFLICT -> invalid(null, g.code().wire(), g.getMessage());
            case com.fasterxml.jackson.core.JsonProcessingException j ->
                    invalid(null, "invalid_json", "We could not parse the JSON body of your request: " + j.getOriginalMessage());
            default -> {
                LOG.warnf(e, "a chat completion failed");
                yield server("the server failed to handle the request");
            }
        };
    }

    static OpenAiError server(String message) {
        return new OpenAiError(500, "server_error", "internal_error", null, message, 0);
    }

    /**
     * A run's field as the request named it: the run's {@code input.messages[..]} is the request's {@code messages};
     * the whole body (bytes that are not UTF-8) is no parameter.
     */
    private static String param(String field) {
        if ("body".equals(field)) {
            return null;
        }
        return field != null && field.startsWith("input.") ? "messages" : field;
    }

    /** {@code {"error": {...}}}: {@code param} and {@code code} are null when there is none, as OpenAI writes them. */
    String json() {
        ObjectNode body = JsonCodec.MAPPER.createObjectNode();
        ObjectNode error = body.putObject("error").put("message", message).put("type", type);
        if (param == null) {
            error.putNull("param");
        } else {
            error.put("param", param);
        }
        if (code == null) {
            error.putNull("code");
        } else {
            error.put("code", code);
        }
        return body.toString();
    }
}
