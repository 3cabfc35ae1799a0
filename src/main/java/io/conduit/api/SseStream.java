package io.conduit.api;

import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;
import java.util.Set;

/**
 * One client's SSE stream of run events: Agent Server framing ({@code event:}, single-line JSON {@code data:},
 * the event's thread-wide seq as {@code id:}), a {@code : heartbeat} comment while idle, only the modes the client
 * asked for. Never blocks the run: a client whose socket stays full past {@code maxQueuedBytes} is dropped.
 */
final class SseStream implements RunEventListener {

    private static final long MAX_QUEUED_BYTES = 8L << 20;

    private final HttpServerResponse response;
    private final Set<String> modes;
    private final boolean subgraphs;
    private final boolean closeAtEnd;
    private final Vertx vertx;
    private final long heartbeat;
    private volatile boolean closed;
    private Runnable onClientGone = () -> { };
    private Runnable release = () -> { };

    SseStream(HttpServerResponse response, Vertx vertx, Duration heartbeat, Set<String> modes, boolean subgraphs, boolean closeAtEnd) {
        this.response = response;
        this.vertx = vertx;
        this.modes = modes;
        this.subgraphs = subgraphs;
        this.closeAtEnd = closeAtEnd;
        response.setChunked(true).setWriteQueueMaxSize((int) MAX_QUEUED_BYTES)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .putHeader("X-Accel-Buffering", "no");
        this.heartbeat = vertx.setPeriodic(heartbeat.toMillis(), id -> write(": heartbeat\n\n"));
        response.closeHandler(v -> gone());
        response.exceptionHandler(t -> gone());
    }

    /** What to do when the client goes away before the end ({@code on_disconnect=cancel}). */
    SseStream onClientGone(Runnable r) {
        this.onClientGone = r;
        return this;
    }

    /** What to release however the stream ends (the log subscription); run at once if it has ended already. */
    SseStream release(Runnable r) {
        this.release = r;
        if (closed) {
            r.run();
        }
        return this;
    }

    /** Sends the headers at once, so the client sees the stream open before the first event. */
    void open() {
        if (!response.headWritten()) {
            response.writeHead();
        }
    }

    @Override
    public void onEvent(RunEvent e) {
        boolean control = "metadata".equals(e.mode()) || e.terminal();
        if (!control && !modes.contains(e.mode())) {
            return;
        }
        if (!e.ns().isEmpty() && !subgraphs) {
            return;
        }
        write("event: " + e.name() + "\ndata: " + e.data() + "\nid: " + e.seq() + "\n\n");
    }

    @Override
    public void onEnd() {
        if (closeAtEnd) {
            close();
        }
    }

    private void write(String frame) {
        if (closed) {
            return;
        }
        if (response.writeQueueFull()) {
            close(); // a client that stopped reading: drop it rather than hold its events
            return;
        }
        response.write(Buffer.buffer(frame));
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        vertx.cancelTimer(heartbeat);
        release.run();
        if (!response.ended() && !response.closed()) {
            response.end();
        }
    }

    private void gone() {
        if (!closed) {
            closed = true;
            vertx.cancelTimer(heartbeat);
            release.run();
            onClientGone.run();
        }
    }

    boolean closed() {
        return closed;
    }
}
