package io.conduit.runs.delivery;

import io.conduit.kernel.JsonCodec;

/**
 * How every transport tells a subscriber it was disconnected for reading too slowly ({@link Outbox#overflowed()}):
 * one code, {@code slow_consumer}, and a sentence saying how to resume.
 */
public final class SlowConsumer {

    public static final String CODE = "slow_consumer";

    /**
     * The WebSocket close code: 4000 plus HTTP 408, as LangGraph's SDK reads 4xxx codes (status = code - 4000), and
     * 408 is one of the two 4xx it reconnects after (with 429); any other 4xx would end its stream for good.
     */
    public static final int WEBSOCKET_CLOSE_CODE = 4408;

    /** Subscribers disconnected as slow consumers since start, every transport together (a metric reads it). */
    private static final java.util.concurrent.atomic.LongAdder DISCONNECTS = new java.util.concurrent.atomic.LongAdder();

    private SlowConsumer() {
    }

    /** How many subscribers were disconnected for reading too slowly since the process started. */
    public static long disconnects() {
        return DISCONNECTS.sum();
    }

    static void disconnected() {
        DISCONNECTS.increment();
    }

    /** The human sentence: how far behind it was, and what to do. */
    public static String message(Outbox.Backlog b) {
        return "the client read too slowly: " + b.events() + " events (" + b.bytes() + " bytes) were waiting after coalescing "
                + b.merged() + " text deltas; reconnect with the last event id received to resume, nothing is lost";
    }

    /** The SSE event that ends the stream (no {@code id:}, so the client's Last-Event-ID stays on what it received). */
    public static String sseFrame(Outbox.Backlog b) {
        String data = JsonCodec.MAPPER.createObjectNode().put("error", CODE).put("message", message(b)).toString();
        return "event: error\ndata: " + data + "\n\n";
    }

    /** A WebSocket close reason: at most 123 bytes, as RFC 6455 allows. */
    public static String closeReason(Outbox.Backlog b) {
        return CODE + ": " + b.events() + " events behind after merging " + b.merged() + " text deltas; reconnect with the last event id";
    }
}
