package io.conduit.http;

import io.conduit.files.FilesConfig;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

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

    /** A file upload: {@code POST /threads/{id}/files}, whose body may be as large as {@code conduit.files.max-upload-bytes}. */
    private static final java.util.regex.Pattern UPLOAD = java.util.regex.Pattern.compile("/threads/[^/]+/files/?");

    private final long maxBody;
    private final long maxUpload;
    private final BodyHandler chunked;

    HttpGuards(ApiConfig api, FilesConfig files) {
        this.maxBody = api.maxBodyBytes();
        this.maxUpload = files.maxUploadBytes();
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
        boolean upload = method == HttpMethod.POST && UPLOAD.matcher(path).matches();
        long limit = upload ? maxUpload : maxBody;
        if (length != null && tooLong(length, limit)) {
            // the body is not read: the connection closes after the answer
            ErrorBody e = new ErrorBody(413, "body_too_large", "the request body is larger than " + limit + " bytes");
            refuse(ctx, e, true).end(e.json());
            return;
        }
        // an upload without a length goes to Quarkus's multipart handling, which writes it to disk and stops at
        // quarkus.http.limits.max-body-size (the upload limit); reading it here would hold it in memory
        if (length == null && !upload && ctx.request().headers().contains("Transfer-Encoding")) {
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
            long limit = UPLOAD.matcher(ctx.normalizedPath()).matches() ? maxUpload : maxBody;
            ErrorBody e = new ErrorBody(413, "body_too_large", "the request body is larger than " + limit + " bytes");
            refuse(ctx, e, true).end(e.json());
            return;
        }
        ctx.next();
    }

    private static boolean tooLong(String length, long limit) {
        try {
            return Long.parseLong(length.trim()) > limit;
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
