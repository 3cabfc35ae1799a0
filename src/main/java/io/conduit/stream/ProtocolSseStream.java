package io.conduit.stream;

import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import java.time.Duration;

/**
 * One {@code POST /threads/{id}/stream/events} stream: the thread's protocol events that match its filter, framed
 * {@code event: <method>}, {@code data: <event JSON>}, {@code id: <event_id>}, and a {@code :} heartbeat comment every
 * {@code heartbeat} for as long as it is open (across runs: a run's end does not end it; the client closes it). Never
 * blocks a run: a client whose socket stays full past {@code maxQueuedBytes} is dropped (it reconnects and replays).
 * The one place this transport's backpressure policy lives.
 */
final class ProtocolSseStream implements RunEventListener {

    private static final int MAX_QUEUED_BYTES = 8 << 20;

    private final HttpServerResponse response;
    private final EventFilter filter;
    private final Vertx vertx;
    private final long heartbeat;
    private volatile boolean closed;
    private Runnable release = () -> { };

    ProtocolSseStream(HttpServerResponse response, Vertx vertx, Duration heartbeat, EventFilter filter) {
        this.response = response;
        this.vertx = vertx;
        this.filter = filter;
        response.setChunked(true).setWriteQueueMaxSize(MAX_QUEUED_BYTES)
                .putHeader("Content-Type", "text/event-stream; charset=utf-8")
                .putHeader("Cache-Control", "no-store")
                .putHeader("X-Accel-Buffering", "no");
        this.heartbeat = vertx.setPeriodic(heartbeat.toMillis(), id -> write(": heartbeat\n\n"));
        response.closeHandler(v -> close());
        response.exceptionHandler(t -> close());
    }

    /** What to release however the stream ends (the log subscription); at once if it has ended already. */
    void release(Runnable r) {
        this.release = r;
        if (closed) {
            r.run();
        }
    }

    void open() {
        if (!response.headWritten()) {
            response.writeHead();
        }
    }

    @Override
    public void onEvent(RunEvent e) {
        if (!filter.matches(e.mode(), EventFilter.segments(e.ns()))) {
            return;
        }
        write("event: " + e.mode() + "\ndata: " + e.data() + "\nid: " + eventId(e) + "\n\n");
    }

    @Override
    public void onEnd() {
        // a thread's stream outlives its runs
    }

    private void write(String frame) {
        if (closed) {
            return;
        }
        if (response.writeQueueFull()) {
            close();
            if (!response.ended() && !response.closed()) {
                response.reset(); // a client that stopped reading: drop it rather than hold its events
            }
            return;
        }
        response.write(Buffer.buffer(frame));
    }

    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        vertx.cancelTimer(heartbeat);
        release.run();
    }

    /** The event's {@code event_id}, read from its JSON without parsing it all; its seq if it has none. */
    static String eventId(RunEvent e) {
        String d = e.data();
        int i = d.indexOf("\"event_id\":\"");
        if (i >= 0) {
            int start = i + 12;
            int end = d.indexOf('"', start);
            if (end > start) {
                return d.substring(start, end);
            }
        }
        return Long.toString(e.seq());
    }
}
