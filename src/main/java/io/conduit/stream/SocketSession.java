package io.conduit.stream;

import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.conduit.runs.delivery.DeliveryConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;

/**
 * One open WebSocket on a thread: its subscriptions, its writer, and its liveness. A ping goes out every
 * {@code pingInterval}; a connection whose last pong is older than {@code pongTimeout} is half-open and is closed
 * and cleaned up here, without waiting for a close that will never come.
 */
final class SocketSession {

    final String threadId;
    final WebSocketConnection connection;
    final WebSocketWriter writer;
    final ConnectionSubscriptions subscriptions;
    private final Vertx vertx;
    private final long timer;
    private final long pongTimeoutMillis;
    private final long missesAllowed;
    private volatile long lastPong = System.currentTimeMillis();
    private volatile int unanswered;
    private final Runnable onClosed;
    private volatile boolean closed;

    SocketSession(String threadId, WebSocketConnection connection, ConnectionSubscriptions.Factory subscriptions, StreamConfig config,
                  DeliveryConfig delivery, Vertx vertx, Context context, Runnable onClosed) {
        this.threadId = threadId;
        this.connection = connection;
        this.writer = new WebSocketWriter(connection, context, delivery);
        this.subscriptions = subscriptions.create(threadId, writer);
        this.vertx = vertx;
        this.onClosed = onClosed;
        this.pongTimeoutMillis = config.pongTimeout().toMillis();
        this.missesAllowed = Math.max(1, pongTimeoutMillis / Math.max(1, config.pingInterval().toMillis()));
        this.timer = vertx.setPeriodic(config.pingInterval().toMillis(), id -> ping());
    }

    void ponged() {
        lastPong = System.currentTimeMillis();
        unanswered = 0;
    }

    /**
     * Half-open when both the time and the pings unanswered say so: a stalled event loop (ours) delays the timer
     * and the pong alike, and must not make a live client look dead.
     */
    private void ping() {
        if (unanswered >= missesAllowed && System.currentTimeMillis() - lastPong > pongTimeoutMillis) {
            connection.close(new CloseReason(1001, "no pong for " + pongTimeoutMillis + " ms")).subscribe().with(x -> { }, f -> { });
            close();
            return;
        }
        unanswered++;
        connection.sendPing(Buffer.buffer("p")).subscribe().with(x -> { }, f -> { });
    }

    /** Drops the subscriptions and the timer; idempotent. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        vertx.cancelTimer(timer);
        subscriptions.close();
        writer.cancel();
        onClosed.run();
    }
}
