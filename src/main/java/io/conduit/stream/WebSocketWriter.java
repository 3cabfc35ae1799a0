package io.conduit.stream;

import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes one connection's frames in call order and never waits: a client with more than {@code maxPending} frames
 * handed over and not yet written is dropped (close 4429 {@code slow_consumer}; the SDK reconnects and the thread's
 * log replays what it missed). The one place a transport's backpressure policy lives, to be replaced by the shared
 * bounded queue.
 */
final class WebSocketWriter implements EventSink {

    static final int SLOW_CONSUMER = 4429;

    private final WebSocketConnection connection;
    private final int maxPending;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean dropped;

    WebSocketWriter(WebSocketConnection connection, int maxPending) {
        this.connection = connection;
        this.maxPending = maxPending;
    }

    @Override
    public void send(String json) {
        if (dropped || connection.isClosed()) {
            return;
        }
        if (pending.incrementAndGet() > maxPending) {
            dropped = true;
            connection.close(new CloseReason(SLOW_CONSUMER, "slow_consumer: the client read too slowly; reconnect to replay"))
                    .subscribe().with(x -> { }, f -> { });
            return;
        }
        connection.sendText(json).subscribe().with(x -> pending.decrementAndGet(), f -> pending.decrementAndGet());
    }
}
