package io.conduit.api;

import io.conduit.graph.GraphException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error the API returns has the same shape, {@code {"error": {"code": ..., "message": ...}}}: a code for
 * programs, a sentence for people, never a stack trace.
 */
public class ApiErrors {

    @ServerExceptionMapper
    public RestResponse<Map<String, Object>> web(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        String code = switch (status) {
            case 400 -> "invalid_request";
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 409 -> "conflict";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "http_" + status;
        };
        return body(status, code, e.getMessage());
    }

    @ServerExceptionMapper
    public RestResponse<Map<String, Object>> graph(GraphException e) {
        int status = switch (e.code()) {
            case UNKNOWN_THREAD -> 404;
            case CONFLICT -> 409;
            case INVALID_REQUEST, NO_PENDING_INTERRUPT, RESUME_REQUIRED, UNKNOWN_CHANNEL -> 400;
            default -> 500;
        };
        return body(status, e.code().wire(), e.getMessage());
    }

    private static RestResponse<Map<String, Object>> body(int status, String code, String message) {
        return RestResponse.ResponseBuilder.<Map<String, Object>>create(Response.Status.fromStatusCode(status))
                .entity(Map.of("error", Map.of("code", code, "message", message == null ? code : message)))
                .type("application/json").build();
    }
}
