package io.conduit.http;

import io.conduit.runs.LimitExceededException;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Counts every request of a caller against its requests per minute ({@link RequestRates}), after {@link AccessGuard}
 * named the caller and before anything else (the body is not read): every door, REST and streaming, and every
 * WebSocket upgrade. Past the limit: 429 {@code too_many_requests} with {@code Retry-After}. What anyone may call
 * without credentials (health, metrics, the page, the simulator) is not counted.
 */
@ApplicationScoped
public class RequestRateGuard {

    /** After AccessGuard (1100), which names the caller; before HttpGuards (1000), which may read the body. */
    private static final int PRIORITY = 1_050;

    private final RequestRates rates;

    RequestRateGuard(RequestRates rates) {
        this.rates = rates;
    }

    void register(@Observes Filters filters) {
        if (rates.on()) {
            filters.register(this::check, PRIORITY);
        }
    }

    private void check(RoutingContext ctx) {
        ctx.request().headers().remove(RequestRates.HEADER); // only this guard names the bucket
        if (OpenPaths.open(ctx.normalizedPath(), ctx.request().method(), true)) {
            ctx.next();
            return;
        }
        String key = rates.key(Callers.of(ctx), address(ctx.request().remoteAddress()));
        LimitExceededException refused = rates.take(key);
        if (refused == null) {
            if (key != null) {
                ctx.request().headers().set(RequestRates.HEADER, key);
            }
            ctx.next();
            return;
        }
        if (!ctx.request().isEnded()) {
            ctx.response().putHeader(HttpHeaders.CONNECTION, "close"); // its body is not read
        }
        RouteErrors.error(ctx, refused);
    }

    private static String address(SocketAddress a) {
        return a == null ? "unknown" : a.hostAddress() != null ? a.hostAddress() : a.toString();
    }
}
