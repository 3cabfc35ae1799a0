package io.conduit.http;

import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;

/**
 * The API's error body ({@link ErrorBody}) written on a Vert.x route: the streaming routes of every front door answer
 * their refusals and failures the way the Agent Server's JAX-RS resources do, {@code Retry-After} included.
 */
public final class RouteErrors {

    private RouteErrors() {
    }

    /** Writes {@code e}; a response whose head is already out (a stream that had begun) is only ended. */
    public static void write(RoutingContext ctx, ErrorBody e) {
        write(ctx, e.status(), e.retryAfterSeconds(), e.json());
    }

    /**
     * Writes an error answer whose body is already JSON in the front door's own shape (OpenAI's, say); a response that
     * has ended or closed is left alone, one whose head is out is only ended.
     */
    public static void write(RoutingContext ctx, int status, long retryAfterSeconds, String json) {
        HttpServerResponse r = ctx.response();
        if (r.ended() || r.closed()) {
            return;
        }
        if (r.headWritten()) {
            r.end();
            return;
        }
        if (retryAfterSeconds > 0) {
            r.putHeader("Retry-After", Long.toString(retryAfterSeconds));
        }
        r.setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }

    public static void error(RoutingContext ctx, Throwable t) {
        write(ctx, ErrorBody.of(t));
    }

    /** A route's failure handler: an oversized body (the body handler's 413), a thrown failure, or a bare status. */
    public static void failed(RoutingContext ctx, long maxBody) {
        if (ctx.statusCode() == 413) {
            write(ctx, new ErrorBody(413, "body_too_large", "the request body is larger than " + maxBody + " bytes"));
        } else if (ctx.failure() != null) {
            error(ctx, ctx.failure());
        } else {
            write(ctx, new ErrorBody(ctx.statusCode(), "http_" + ctx.statusCode(), "the request failed"));
        }
    }
}
