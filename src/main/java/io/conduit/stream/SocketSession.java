package io.conduit.stream;

import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
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
    private volatile long lastPong = System.currentTimeMillis();
    private final Runnable onClosed;
    private volatile boolean closed;

    SocketSession(String threadId, WebSocketConnection connection, ConnectionSubscriptions.Factory subscriptions, StreamConfig config,
                  Vertx vertx, Runnable onClosed) {
        this.threadId = threadId;
        this.connection = connection;
        this.writer = new WebSocketWriter(connection, config.maxPendingFrames());
        this.subscriptions = subscriptions.create(threadId, writer);
        this.vertx = vertx;
        this.onClosed = onClosed;
        this.pongTimeoutMillis = config.pongTimeout().toMillis();
        this.timer = vertx.setPeriodic(config.pingInterval().toMillis(), id -> ping());
    }

    void ponged() {
        lastPong = System.currentTimeMillis();
    }

    private void ping() {
        if (System.currentTimeMillis() - lastPong > pongTimeoutMillis) {
            connection.close(new CloseReason(1001, "no pong for " + pongTimeoutMillis + " ms")).subscribe().with(x -> { }, f -> { });
            close();
            return;
        }
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
        onClosed.run();
    }
}
