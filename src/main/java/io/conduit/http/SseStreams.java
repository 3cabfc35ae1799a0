package io.conduit.http;

import io.conduit.runs.Run;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.worker.RunExecutor;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * Where every front door that streams over SSE gets its streams ({@link SseStream}): the same permits, delivery bounds
 * and heartbeat for all, so a door is left with its parsing, its run and its translator.
 */
@ApplicationScoped
public class SseStreams {

    private final Vertx vertx;
    private final StreamPermits permits;
    private final DeliveryConfig delivery;
    private final Duration heartbeat;
    private final RunExecutor executor;

    SseStreams(Vertx vertx, StreamPermits permits, DeliveryConfig delivery, ServingConfig serving, RunExecutor executor) {
        this.vertx = vertx;
        this.permits = permits;
        this.delivery = delivery;
        this.heartbeat = serving.heartbeat();
        this.executor = executor;
    }

    /**
     * The stream this request may open on {@code transport} (its count among the open streams), heartbeat
     * {@code conduit.runs.heartbeat}. Called while the request is handled, before anything asynchronous: the stream is
     * written on the connection's own event loop.
     */
    public SseStream of(RoutingContext ctx, StreamTransport transport) {
        return of(ctx, transport, heartbeat);
    }

    /** {@link #of(RoutingContext, StreamTransport)} for a transport with a heartbeat of its own. */
    public SseStream of(RoutingContext ctx, StreamTransport transport, Duration heartbeat) {
        return new SseStream(ctx, vertx.getOrCreateContext(), heartbeat, delivery, permits, transport);
    }

    /** A client that goes away before the end stops its run, if it asked for that ({@code on_disconnect=cancel}). */
    public void cancelOnDisconnect(SseSubscriber sse, Run run, boolean asked) {
        sse.onClientGone(() -> {
            if (asked) {
                executor.cancel(run, RunExecutor.StopReason.INTERRUPT).subscribe().with(x -> { }, f -> { });
            }
        });
    }
}
