package io.conduit.agui;

import io.conduit.runs.delivery.BytesInFlight;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.LoopExecutor;
import io.conduit.runs.delivery.Outbox;
import io.conduit.runs.delivery.OutboxDrain;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Context;
import java.util.concurrent.CompletableFuture;

/**
 * One run's AG-UI events over a WebSocket, one event per text frame, through the shared bounded {@link Outbox}: the
 * run's frames ({@link AgUiFormat}) wait there and are sent as they are when the socket takes them. websockets-next has no
 * {@code writeQueueFull()}, so the bytes handed to the socket and not yet written are counted here, as the thread
 * protocol's writer counts them. A client past the outbox's bound gets RUN_ERROR {@code slow_consumer} and the
 * connection closes with 4408.
 */
final class AgUiSocketRun implements RunEventListener, OutboxDrain.Sink {

    private final WebSocketConnection connection;
    private final Outbox outbox;
    private final OutboxDrain drain;
    private final BytesInFlight inFlight;
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    AgUiSocketRun(WebSocketConnection connection, Context context, DeliveryConfig delivery) {
        this.connection = connection;
        this.outbox = new Outbox(delivery.bounds(), e -> true);
        this.drain = new OutboxDrain(outbox, new LoopExecutor(context), this);
        this.inFlight = new BytesInFlight(delivery.socketQueueBytes(), drain::resume);
    }

    /** Completes when the run's last event was handed to the socket (or the client went away). */
    CompletableFuture<Void> done() {
        return done;
    }

    @Override
    public void onEvent(RunEvent e) {
        outbox.onEvent(e);
    }

    @Override
    public void onReplay(RunEvent e) {
        outbox.onReplay(e);
    }

    @Override
    public void onEnd() {
        outbox.onEnd();
    }

    @Override
    public boolean writable() {
        // not connection.isClosed() (a lock per frame): a closed socket cancels the outbox (onClose), and a frame
        // sent in between fails harmlessly
        return inFlight.hasRoom();
    }

    @Override
    public void send(RunEvent e) {
        inFlight.send(e.data(), connection::sendText);
    }

    @Override
    public void end() {
        done.complete(null);
    }

    @Override
    public void overflow(Outbox.Backlog backlog) {
        connection.sendText(AgUiEvents.runError(SlowConsumer.CODE, SlowConsumer.message(backlog)).toString())
                .chain(() -> connection.close(new CloseReason(SlowConsumer.WEBSOCKET_CLOSE_CODE, SlowConsumer.closeReason(backlog))))
                .subscribe().with(x -> { }, f -> { });
        done.complete(null);
    }

    /** The connection closed: what waits is dropped. */
    void cancel() {
        outbox.cancel();
        done.complete(null);
    }
}
