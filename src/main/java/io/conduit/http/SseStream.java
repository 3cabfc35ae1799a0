package io.conduit.http;

import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.SseSubscriber;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.RunEvent;
import io.vertx.core.Context;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One client's SSE stream of a run's (or a thread's) events, as every front door opens it, in this order: a stream
 * permit, taken before the run is created (a refused stream creates nothing); the subscriber, holding the permit; the
 * door's subscription to the log; then the head, so a client that acts on the headers finds its events in the log.
 * However the stream ends, the permit goes back and the subscription is cancelled.
 */
public final class SseStream {

    private final RoutingContext ctx;
    private final Context context;
    private final Duration heartbeat;
    private final DeliveryConfig delivery;
    private final StreamPermits permits;
    private final StreamTransport transport;
    private StreamPermits.Permit permit;
    private SseSubscriber subscriber;

    SseStream(RoutingContext ctx, Context context, Duration heartbeat, DeliveryConfig delivery, StreamPermits permits,
              StreamTransport transport) {
        this.ctx = ctx;
        this.context = context;
        this.heartbeat = heartbeat;
        this.delivery = delivery;
        this.permits = permits;
        this.transport = transport;
    }

    /** Takes one of this replica's stream permits; false when all are taken, and the client has its 429 ({@link ErrorBody}). */
    public boolean admit() {
        return admit(p -> RouteErrors.write(ctx, new ErrorBody(429, StreamPermits.CODE, p.refusal(), p.retryAfterSeconds())));
    }

    /** {@link #admit()} for a door with an error shape of its own: {@code refuse} answers the client. */
    public boolean admit(Consumer<StreamPermits> refuse) {
        permit = permits.tryAcquire(transport);
        if (permit == null) {
            refuse.accept(permits);
            return false;
        }
        return true;
    }

    /**
     * The subscriber that writes the stream: {@code wanted}, the log's events this client gets; {@code frame}, one of
     * them as SSE; {@code closeAtEnd}, whether the stream ends with the run's events (a thread's stays open).
     */
    public SseSubscriber subscriber(Predicate<RunEvent> wanted, Function<RunEvent, String> frame, boolean closeAtEnd) {
        subscriber = new SseSubscriber(ctx.request(), context, heartbeat, delivery, wanted, frame, closeAtEnd, permit);
        return subscriber;
    }

    /**
     * Sends the head, the subscriber being subscribed, and keeps what ends the subscription for the stream's end;
     * {@code unsubscribe} is null when the log had nothing to subscribe to.
     */
    public void open(Runnable unsubscribe) {
        subscriber.open();
        if (unsubscribe != null) {
            subscriber.release(unsubscribe);
        }
    }

    /** No stream after all, and the door answers the client itself: the permit goes back. */
    public void release() {
        permit.release();
    }

    /** No stream after all (the run was refused, say): the permit goes back and the client gets the error. */
    public void fail(Throwable failure) {
        permit.release();
        RouteErrors.error(ctx, failure);
    }
}
