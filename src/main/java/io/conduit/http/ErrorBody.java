package io.conduit.http;

import io.conduit.graph.GraphException;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.AssistantExistsException;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadExistsException;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.delivery.ReplicaShuttingDownException;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.submission.RunSubmission;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Every API error has one shape, the Agent Server's {@code {"detail": "...", "code": "..."}}: a sentence for people,
 * a code for programs, never a stack trace. One mapping from exceptions to status and code, for the REST resources
 * and the streaming routes alike; the other front doors (AG-UI, the AI SDK) answer their errors with it too, and a
 * door with an error shape of its own (OpenAI's) still writes it with {@link RouteErrors}. A 429 says when to retry
 * ({@code Retry-After}, {@link #retryAfterSeconds}).
 */
public record ErrorBody(int status, String code, String detail, long retryAfterSeconds) {

    public ErrorBody(int status, String code, String detail) {
        this(status, code, detail, 0);
    }

    public static ErrorBody of(Throwable t) {
        Throwable e = t instanceof java.util.concurrent.CompletionException && t.getCause() != null ? t.getCause() : t;
        return switch (e) {
            case LimitExceededException l -> new ErrorBody(429, l.code(), l.getMessage(), l.retryAfterSeconds());
            case ReplicaShuttingDownException s ->
                    new ErrorBody(503, ServerShutdown.CODE, s.getMessage(), ServerShutdown.RETRY_MILLIS / 1000);
            case io.conduit.runs.WebhookRefusedException w -> new ErrorBody(422, w.code(), w.getMessage());
            case InvalidInputException i -> new ErrorBody(422, "invalid_input", i.getMessage());
            case io.conduit.files.MalformedCsvException m -> new ErrorBody(422, "malformed_csv", m.getMessage());
            case io.conduit.files.FileTooLargeException f -> new ErrorBody(413, "body_too_large", f.getMessage());
            case NotFoundException n -> new ErrorBody(404, "not_found", n.getMessage());
            case ThreadBusyException b -> new ErrorBody(409, "thread_busy", b.getMessage());
            case io.conduit.runs.RunElsewhereException r -> new ErrorBody(409, "run_on_another_replica", r.getMessage());
            case ThreadGraphMismatchException m -> new ErrorBody(409, "thread_graph_mismatch", m.getMessage());
            case ThreadExistsException x -> new ErrorBody(409, "thread_exists", x.getMessage());
            case AssistantExistsException x -> new ErrorBody(409, "assistant_exists", x.getMessage());
            case RunSubmission.BadRequest b -> new ErrorBody(400, "bad_request", b.getMessage());
            case GraphException g -> switch (g.code()) {
                case UNKNOWN_THREAD -> new ErrorBody(404, g.code().wire(), g.getMessage());
                case CONFLICT -> new ErrorBody(409, g.code().wire(), g.getMessage());
                case INVALID_REQUEST, NO_PENDING_INTERRUPT, RESUME_REQUIRED, UNKNOWN_CHANNEL -> new ErrorBody(400, g.code().wire(), g.getMessage());
                default -> new ErrorBody(500, g.code().wire(), g.getMessage());
            };
            case com.fasterxml.jackson.core.JsonProcessingException j -> new ErrorBody(400, "malformed_json", "the body is not valid JSON: " + j.getOriginalMessage());
            default -> io.conduit.runs.StoreUnavailable.is(e)
                    ? new ErrorBody(503, "store_unavailable", "the database cannot be reached; try again shortly", 1)
                    : new ErrorBody(500, "internal_error", "the server failed to handle the request");
        };
    }

    public String json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("detail", detail);
        m.put("code", code);
        try {
            return JsonCodec.MAPPER.writeValueAsString(m);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return "{\"detail\":\"error\",\"code\":\"" + code + "\"}";
        }
    }

    /** The body as a map, for a JAX-RS response's entity. */
    public Map<String, Object> map() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("detail", detail);
        m.put("code", code);
        return m;
    }
}
