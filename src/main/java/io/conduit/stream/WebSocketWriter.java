package io.conduit.stream;

import io.conduit.http.SocketOutbox;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.Outbox;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.events.RunEvent;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Context;

/**
 * Writes one connection's frames in call order and never waits, through the shared {@link SocketOutbox}: a client
 * that reads slowly has its text deltas merged, and past the outbox's bound is closed with 4408
 * {@code slow_consumer} (the SDK reconnects after it and the thread's log replays what it missed). When the replica
 * shuts down it closes with 1012 "service restart" once what waits is sent.
 */
final class WebSocketWriter extends SocketOutbox implements EventSink {

    /** The mode of a command's answer in the outbox (never a log event's). */
    private static final String ANSWER = "answer";

    /** The replica shuts down: the connection closes with 1012 once what waits is sent. */
    private volatile boolean shuttingDown;

    /** {@code context}: the connection's, where its socket is written. */
    WebSocketWriter(WebSocketConnection connection, Context context, DeliveryConfig delivery) {
        super(connection, context, delivery);
    }

    @Override
    public void answer(String json) {
        onReplay(new RunEvent(-1, "", ANSWER, "", json)); // not held against the client: answers are few
    }

    @Override
    public void replay(RunEvent e) {
        onReplay(e);
    }

    @Override
    public void event(RunEvent e) {
        onEvent(e);
    }

    @Override
    public void end() {
        // a thread's subscriptions outlive its runs: the client closes the connection, unless the replica shuts down
        if (shuttingDown) {
            connection.close(new CloseReason(ServerShutdown.WEBSOCKET_CLOSE_CODE, ServerShutdown.CLOSE_REASON))
                    .subscribe().with(x -> { }, f -> { });
        }
    }

    /**
     * The replica shuts down: the events and answers already queued go out, then the connection closes with 1012
     * "service restart" ({@link ServerShutdown}); the SDK reconnects and resubscribes from its last seq.
     */
    void shutDown() {
        shuttingDown = true;
        finishNow();
    }

    @Override
    public void overflow(Outbox.Backlog backlog) {
        connection.close(new CloseReason(SlowConsumer.WEBSOCKET_CLOSE_CODE, SlowConsumer.closeReason(backlog)))
                .subscribe().with(x -> { }, f -> { });
    }
}
