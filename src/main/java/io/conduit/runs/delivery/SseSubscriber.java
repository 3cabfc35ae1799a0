package io.conduit.runs.delivery;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One client's SSE stream of run events, for every SSE transport (the classic API's and the thread protocol's, which
 * differ only in which events they want and how they frame one): a {@code : heartbeat} comment while idle. The log
 * hands events to the client's {@link Outbox} and never waits; they reach the socket, on the connection's context,
 * as fast as it drains. A client that falls too far behind gets a last {@code event: error} with code
 * {@code slow_consumer} and the stream ends: it reconnects with its last event id and loses nothing. When the replica
 * shuts down, what waits is sent, then a last {@code event: error} with code {@code server_shutting_down} and a
 * {@code retry:} ({@link ServerShutdown}), and the stream ends: the client reconnects and follows its run elsewhere.
 */
public final class SseSubscriber implements RunEventListener, OutboxDrain.Sink {

    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final Context context;
    private final boolean closeAtEnd;
    private final Duration heartbeat;
    private final StreamPermits.Permit permit;
    private final Function<RunEvent, String> frame;
    private final Outbox outbox;
    private final OutboxDrain drain;
    private volatile boolean closed;
    private long heartbeatTimer = -1;
    private Runnable onClientGone = () -> { };
    private Runnable release = () -> { };
    private Function<Outbox.Backlog, String> overflowFrame = SlowConsumer::sseFrame;
    private Supplier<String> shutdownFrame = ServerShutdown::sseFrame;
    /** The replica shuts down: the stream ends with {@link #shutdownFrame} once what waits is sent. */
    private volatile boolean shuttingDown;

    /**
     * {@code context}: the connection's (taken on the request's event loop); {@code wanted}: the events this client
     * asked for; {@code frame}: one event as its SSE frame; {@code closeAtEnd}: whether the stream ends with the log's
     * {@link #onEnd()} (a run's stream) or stays open (a thread's); {@code permit}: the stream's, given back when it ends.
     */
    public SseSubscriber(HttpServerRequest request, Context context, Duration heartbeat, DeliveryConfig delivery,
                         Predicate<RunEvent> wanted, Function<RunEvent, String> frame, boolean closeAtEnd, StreamPermits.Permit permit) {
        this.request = request;
        this.response = request.response();
        this.context = context;
        this.heartbeat = heartbeat;
        this.closeAtEnd = closeAtEnd;
        this.permit = permit;
        this.frame = frame;
        this.outbox = new Outbox(delivery.bounds(), wanted);
        this.drain = new OutboxDrain(outbox, new LoopExecutor(context), this);
        response.setChunked(true).setWriteQueueMaxSize(delivery.socketQueueBytes())
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .putHeader("X-Accel-Buffering", "no");
        response.drainHandler(v -> drain.resume());
        response.closeHandler(v -> gone());
        response.exceptionHandler(t -> gone());
        permit.onShutdown(this::shutDown);
        if (response.closed()) {
            stop(); // gone while its run was being created: no close handler will tell (the permit would stay taken)
        }
    }

    /** What to do when the client goes away before the end ({@code on_disconnect=cancel}). */
    public SseSubscriber onClientGone(Runnable r) {
        this.onClientGone = r;
        return this;
    }

    /** The last frame of a client dropped as a slow consumer, for a wire format with its own error event (AG-UI's RUN_ERROR). */
    public SseSubscriber overflowFrame(Function<Outbox.Backlog, String> f) {
        this.overflowFrame = f;
        return this;
    }

    /** The last frame when the replica shuts down, for a wire format with its own error event (AG-UI's RUN_ERROR). */
    public SseSubscriber shutdownFrame(Supplier<String> f) {
        this.shutdownFrame = f;
        return this;
    }

    /** What to release however the stream ends (the log subscription); run at once if it has ended already. */
    public SseSubscriber release(Runnable r) {
        this.release = r;
        if (closed) {
            r.run();
        }
        return this;
    }

    /** Sends the headers at once, so the client sees the stream open before the first event; starts the heartbeat. */
    public void open() {
        context.runOnContext(v -> {
            if (closed) {
                return;
            }
            if (!response.headWritten()) {
                response.writeHead();
            }
            heartbeatTimer = context.owner().setPeriodic(heartbeat.toMillis(), id -> {
                if (!closed && !response.writeQueueFull()) {
                    response.write(": heartbeat\n\n");
                }
            });
        });
    }

    @Override
    public void onEvent(RunEvent e) {
        outbox.onEvent(e);
    }

    @Override
    public void onReplay(RunEvent e) {
        outbox.onReplay(e);
    }

    /** Nothing more will come: the stream ends (if it ends with the run) once what waits has been sent. */
    @Override
    public void onEnd() {
        outbox.onEnd();
    }

    @Override
    public boolean writable() {
        return !closed && !response.writeQueueFull();
    }

    @Override
    public void send(RunEvent e) {
        response.write(Buffer.buffer(frame.apply(e)));
    }

    @Override
    public void end() {
        if (shuttingDown) {
            if (!closed) {
                response.write(shutdownFrame.get());
            }
            close();
        } else if (closeAtEnd) {
            close();
        }
    }

    /**
     * The replica shuts down: the events already handed to the outbox go out, then {@link #shutdownFrame}, then the
     * stream ends (see {@link #end}).
     */
    private void shutDown() {
        if (closed) {
            return;
        }
        shuttingDown = true;
        outbox.onEnd();
        drain.resume();
    }

    /**
     * Past the socket's bound: one small frame, then the end. A client that has not taken them a heartbeat later is
     * hung up on, so that what its socket holds is freed (it reconnects with its last id all the same).
     */
    @Override
    public void overflow(Outbox.Backlog backlog) {
        if (closed) {
            return;
        }
        response.write(overflowFrame.apply(backlog));
        stop();
        boolean[] flushed = new boolean[1];
        response.end().onComplete(done -> flushed[0] = true);
        context.owner().setTimer(heartbeat.toMillis(), id -> {
            if (!flushed[0]) {
                request.connection().close();
            }
        });
    }

    /** Ends the stream (on the connection's context). */
    public void close() {
        if (io.vertx.core.Vertx.currentContext() == context) {
            closeHere();
        } else {
            context.runOnContext(v -> closeHere());
        }
    }

    private void closeHere() {
        if (closed) {
            return;
        }
        stop();
        if (!response.ended() && !response.closed()) {
            response.end();
        }
    }

    private void gone() {
        if (!closed) {
            stop();
            onClientGone.run();
        }
    }

    private void stop() {
        closed = true;
        outbox.cancel();
        if (heartbeatTimer >= 0) {
            context.owner().cancelTimer(heartbeatTimer);
        }
        permit.release();
        release.run();
    }

    public boolean closed() {
        return closed;
    }
}
