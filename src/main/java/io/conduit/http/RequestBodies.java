package io.conduit.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The request bodies of the front doors' Vert.x routes: read up to {@code conduit.api.max-body-bytes} (a larger one
 * fails the route with 413, answered by {@link #failed} in the API's error shape) and parsed as checked client JSON.
 */
@ApplicationScoped
public class RequestBodies {

    private final long limit;

    RequestBodies(ApiConfig api) {
        this.limit = api.maxBodyBytes();
    }

    /** The handler that reads a route's body, bounded. */
    public BodyHandler handler() {
        return BodyHandler.create(false).setBodyLimit(limit);
    }

    /** A route's failure handler: an oversized body, a thrown failure or a bare status, as {@link ErrorBody}. */
    public void failed(RoutingContext ctx) {
        RouteErrors.failed(ctx, limit);
    }

    /** The largest body, in bytes, for a door that words its own 413. */
    public long limit() {
        return limit;
    }

    /** The body read by {@link #handler()}, checked ({@link ClientJson}); null when there is none. */
    public static JsonNode json(RoutingContext ctx) throws JsonProcessingException {
        return ClientJson.parse(ctx.body().buffer() == null ? null : ctx.body().buffer().getBytes());
    }
}
