package io.conduit.stream;

import io.conduit.runs.delivery.BytesInFlight;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.LoopExecutor;
import io.conduit.runs.delivery.Outbox;
import io.conduit.runs.delivery.OutboxDrain;
import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.events.RunEvent;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.vertx.core.Context;

/**
 * Writes one connection's frames in call order and never waits, through the same bounded {@link Outbox} as every
 * other transport: a client that reads slowly has its text deltas merged, and past the outbox's bound is closed with
 * 4408 {@code slow_consumer} (the SDK reconnects after it and the thread's log replays what it missed). The socket
 * is fed while fewer than {@code socketQueueBytes} handed to it are unwritten: websockets-next has no
 * {@code writeQueueFull()}, so the frames in flight are counted here.
 */
final class WebSocketWriter implements EventSink, OutboxDrain.Sink {

    /** The mode of a command's answer in the outbox (never a log event's). */
    private static final String ANSWER = "answer";

    private final WebSocketConnection connection;
    private final Outbox outbox;
    private final OutboxDrain drain;
    private final BytesInFlight inFlight;

    /** {@code context}: the connection's, where its socket is written. */
    WebSocketWriter(WebSocketConnection connection, Context context, DeliveryConfig delivery) {
        this.connection = connection;
        this.outbox = new Outbox(delivery.bounds(), e -> true);
        this.drain = new OutboxDrain(outbox, new LoopExecutor(context), this);
        this.inFlight = new BytesInFlight(delivery.socketQueueBytes(), drain::resume);
    }

    @Override
    public void answer(String json) {
        outbox.onReplay(new RunEvent(-1, "", ANSWER, "", json)); // not held against the client: answers are few
    }

    @Override
    public void replay(RunEvent e) {
        outbox.onReplay(e);
    }

    @Override
    public void event(RunEvent e) {
        outbox.onEvent(e);
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
        // a thread's subscriptions outlive its runs: the client closes the connection
    }

    @Override
    public void overflow(Outbox.Backlog backlog) {
        connection.close(new CloseReason(SlowConsumer.WEBSOCKET_CLOSE_CODE, SlowConsumer.closeReason(backlog)))
                .subscribe().with(x -> { }, f -> { });
    }

    /** The connection closed: what waits is dropped. */
    void cancel() {
        outbox.cancel();
    }
}
