package io.conduit.api;

import io.conduit.graph.GraphException;
import io.conduit.http.ErrorBody;
import io.conduit.runs.AssistantExistsException;
import io.conduit.runs.InvalidInputException;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.NotFoundException;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadExistsException;
import io.conduit.runs.ThreadGraphMismatchException;
import io.conduit.runs.submission.RunSubmission;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Errors of the REST resources in the API's one shape, {@code {"detail": ..., "code": ...}} (see {@link ErrorBody}):
 * never a stack trace.
 */
public class ApiErrors {

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String code = switch (status) {
            case 400 -> "malformed_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> "body_too_large";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "http_" + status;
        };
        String detail = status == 400 ? "the body is not valid JSON, or not of the expected shape" : e.getMessage();
        return body(new ErrorBody(status, code, detail));
    }

    @ServerExceptionMapper({GraphException.class, InvalidInputException.class, NotFoundException.class, ThreadBusyException.class,
            io.conduit.runs.RunElsewhereException.class, ThreadExistsException.class, ThreadGraphMismatchException.class, AssistantExistsException.class, RunSubmission.BadRequest.class, LimitExceededException.class,
            io.conduit.files.MalformedCsvException.class, io.conduit.files.FileTooLargeException.class, com.fasterxml.jackson.core.JsonProcessingException.class})
    public Response known(Exception e) {
        return body(ErrorBody.of(e));
    }

    /**
     * Anything else: the database out of reach is a 503 to retry ({@code store_unavailable}); the rest a 500 with a
     * code, logged here with its stack (the client gets none).
     */
    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        ErrorBody body = ErrorBody.of(e);
        if (body.status() == 500) {
            org.jboss.logging.Logger.getLogger(ApiErrors.class).error("A request failed", e);
        }
        return body(body);
    }

    static Response body(ErrorBody e) {
        // by number: Response.Status has no 422
        Response.ResponseBuilder r = Response.status(e.status()).entity(e.map()).type("application/json");
        if (e.retryAfterSeconds() > 0) {
            r.header("Retry-After", e.retryAfterSeconds());
        }
        return r.build();
    }
}
