package io.conduit.api;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Checks every request before any route sees it, so that each endpoint, on quarkus-rest or on Vert.x, answers them
 * alike, in the API's error shape: a body declared larger than {@code conduit.api.max-body-bytes} is refused at once
 * with 413 (Quarkus's own limit would answer an empty 413), and the health endpoints, which are reads, refuse
 * anything but GET and HEAD with 405. A chunked body (no length) is read here, bounded alike.
 */
@ApplicationScoped
public class HttpGuards {

    /** Runs before Quarkus's upload limit (route order -2; a filter's order is minus its priority). */
    private static final int PRIORITY = 1_000;

    private final long maxBody;
    private final BodyHandler chunked;

    HttpGuards(@ConfigProperty(name = "conduit.api.max-body-bytes", defaultValue = "1048576") long maxBody) {
        this.maxBody = maxBody;
        this.chunked = BodyHandler.create(false).setBodyLimit(maxBody);
    }

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    private void check(RoutingContext ctx) {
        String path = ctx.normalizedPath();
        HttpMethod method = ctx.request().method();
        if ((path.equals("/q/health") || path.startsWith("/q/health/")) && method != HttpMethod.GET && method != HttpMethod.HEAD) {
            ErrorBody e = new ErrorBody(405, "method_not_allowed", "the health endpoints answer GET and HEAD only");
            refuse(ctx, e, false).putHeader("Allow", "GET, HEAD").end(e.json());
            return;
        }
        String length = ctx.request().getHeader("Content-Length");
        if (length != null && tooLong(length)) {
            // the body is not read: the connection closes after the answer
            ErrorBody e = new ErrorBody(413, "body_too_large", "the request body is larger than " + maxBody + " bytes");
            refuse(ctx, e, true).end(e.json());
            return;
        }
        if (length == null && ctx.request().headers().contains("Transfer-Encoding")) {
            // a chunked body: read here, bounded (a failure of 413 past the limit, answered by failed()); the routes
            // and quarkus-rest take the body read
            chunked.handle(ctx);
            return;
        }
        ctx.next();
    }

    void failures(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).failureHandler(this::failed);
    }

    private void failed(RoutingContext ctx) {
        if (ctx.statusCode() == 413 && !ctx.response().headWritten()) {
            ErrorBody e = new ErrorBody(413, "body_too_large", "the request body is larger than " + maxBody + " bytes");
            refuse(ctx, e, true).end(e.json());
            return;
        }
        ctx.next();
    }

    private boolean tooLong(String length) {
        try {
            return Long.parseLong(length.trim()) > maxBody;
        } catch (NumberFormatException e) {
            return false; // Vert.x refuses a malformed length itself
        }
    }

    private static HttpServerResponse refuse(RoutingContext ctx, ErrorBody e, boolean close) {
        HttpServerResponse r = ctx.response().setStatusCode(e.status()).putHeader("Content-Type", "application/json");
        if (close) {
            r.putHeader("Connection", "close");
        }
        return r;
    }
}
