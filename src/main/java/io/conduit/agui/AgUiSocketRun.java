package io.conduit.agui;

import io.conduit.http.SocketOutbox;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.Outbox;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Context;
import java.util.concurrent.CompletableFuture;

/**
 * One run's AG-UI events over a WebSocket, one event per text frame ({@link AgUiFormat}), through the shared
 * {@link SocketOutbox}. A client past the outbox's bound gets RUN_ERROR {@code slow_consumer} and the connection
 * closes with 4408.
 */
final class AgUiSocketRun extends SocketOutbox implements RunEventListener {

    private final CompletableFuture<Void> done = new CompletableFuture<>();

    /** The replica shuts down: after what waits, RUN_ERROR {@code server_shutting_down} and a close with 1012. */
    private volatile boolean shuttingDown;
    /** RUN_FINISHED or RUN_ERROR went out: a drain then only closes (an AG-UI run has one end). */
    private volatile boolean ended;

    AgUiSocketRun(WebSocketConnection connection, Context context, DeliveryConfig delivery) {
        super(connection, context, delivery);
    }

    /** Completes when the run's last event was handed to the socket (or the client went away). */
    CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void send(RunEvent e) {
        if (AgUiFrames.RUN_FINISHED.equals(e.mode()) || AgUiFrames.RUN_ERROR.equals(e.mode())) {
            ended = true;
        }
        super.send(e);
    }

    @Override
    public void end() {
        if (shuttingDown) {
            AgUiSocket.closeForShutdown(connection, !ended);
        }
        done.complete(null);
    }

    /**
     * The replica shuts down: the events already queued go out, then RUN_ERROR {@code server_shutting_down} and the
     * close. The run itself is handed back and goes on elsewhere; its outcome is on the thread.
     */
    void shutDown() {
        shuttingDown = true;
        finishNow();
    }

    @Override
    public void overflow(Outbox.Backlog backlog) {
        connection.sendText(AgUiEvents.runError(SlowConsumer.CODE, SlowConsumer.message(backlog)).toString())
                .chain(() -> connection.close(new CloseReason(SlowConsumer.WEBSOCKET_CLOSE_CODE, SlowConsumer.closeReason(backlog))))
                .subscribe().with(x -> { }, f -> { });
        done.complete(null);
    }

    /** The connection closed: what waits is dropped. */
    @Override
    public void cancel() {
        super.cancel();
        done.complete(null);
    }
}
