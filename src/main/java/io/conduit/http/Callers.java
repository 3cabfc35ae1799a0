package io.conduit.http;

import io.conduit.auth.Principal;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where every door reads who is calling: {@link AccessGuard} authenticated the request before any route saw it and
 * left the principal on the routing context, and in a request header of its own (replacing any the client sent), so
 * that a WebSocket endpoint, which sees only its upgrade request's headers, reads the same principal.
 */
public final class Callers {

    /** The header AccessGuard sets on every request it lets through; a client's own value never survives it. */
    public static final String HEADER = "x-conduit-principal";

    static final String KEY = "conduit.principal";

    private Callers() {
    }

    public static Principal of(RoutingContext ctx) {
        Principal p = ctx.get(KEY);
        return p != null ? p : of(ctx.request());
    }

    public static Principal of(HttpServerRequest request) {
        return fromHeader(request.getHeader(HEADER));
    }

    /** The principal named by {@link #HEADER}'s value (a WebSocket's upgrade request's). */
    public static Principal fromHeader(String value) {
        if (value == null) {
            // AccessGuard sets it on every request: a request without it did not pass the check
            throw new IllegalStateException("the request was not authenticated (" + HEADER + " missing)");
        }
        if (value.equals("anonymous;anonymous")) {
            return Principal.ANONYMOUS;
        }
        int semi = value.lastIndexOf(';');
        return Principal.user(URLDecoder.decode(value.substring(0, semi), StandardCharsets.UTF_8), value.endsWith(";admin"));
    }

    static String header(Principal p) {
        if (p.anonymous()) {
            return "anonymous;anonymous";
        }
        return URLEncoder.encode(p.id(), StandardCharsets.UTF_8) + (p.admin() ? ";admin" : ";user");
    }

    static void put(RoutingContext ctx, Principal p) {
        ctx.put(KEY, p);
        ctx.request().headers().set(HEADER, header(p));
    }
}
