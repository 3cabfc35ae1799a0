package io.conduit.http;

import io.conduit.runs.delivery.BytesInFlight;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.LoopExecutor;
import io.conduit.runs.delivery.Outbox;
import io.conduit.runs.delivery.OutboxDrain;
import io.conduit.runs.events.RunEvent;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Context;

/**
 * A WebSocket's frames through the shared bounded {@link Outbox}, one text frame each, sent in call order as the socket
 * takes them and never waited for. websockets-next has no {@code writeQueueFull()}, so the bytes handed to the socket
 * and not yet written are counted ({@link BytesInFlight}) and the socket is fed while they are under
 * {@code socket-queue-bytes}. A door says what a slow client gets ({@link #overflow}) and what the end is ({@link #end}).
 */
public abstract class SocketOutbox implements OutboxDrain.Sink {

    protected final WebSocketConnection connection;
    private final Outbox outbox;
    private final OutboxDrain drain;
    private final BytesInFlight inFlight;

    /** {@code context}: the connection's, where its socket is written. */
    protected SocketOutbox(WebSocketConnection connection, Context context, DeliveryConfig delivery) {
        this.connection = connection;
        this.outbox = new Outbox(delivery.bounds(), e -> true);
        this.drain = new OutboxDrain(outbox, new LoopExecutor(context), this);
        this.inFlight = new BytesInFlight(delivery.socketQueueBytes(), drain::resume);
    }

    /** A live frame: merged or dropped with the others if the client falls behind. */
    public void onEvent(RunEvent e) {
        outbox.onEvent(e);
    }

    /** A replayed frame or an answer: not held against the client. */
    public void onReplay(RunEvent e) {
        outbox.onReplay(e);
    }

    /** Nothing more will come: {@link #end} once what waits has been sent. */
    public void onEnd() {
        outbox.onEnd();
    }

    /** Nothing more will come, and what waits is sent now: {@link #end} follows once the socket has taken it. */
    protected void finishNow() {
        outbox.onEnd();
        drain.resume();
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

    /** The connection closed: what waits is dropped. */
    public void cancel() {
        outbox.cancel();
    }
}
