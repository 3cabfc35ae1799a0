package io.conduit.runs.delivery;

import io.conduit.kernel.JsonCodec;

/**
 * How every transport tells a client that this replica is shutting down (a drain, {@link StreamPermits#shutDown}):
 * one code, {@code server_shutting_down}, and how to go on. Its runs are handed back and resume on another replica (or
 * this one restarted) from their checkpoints; the client reconnects with its last event id and misses nothing.
 */
public final class ServerShutdown {

    public static final String CODE = "server_shutting_down";

    /** RFC 6455's "Service Restart": LangGraph's SDK reconnects after it, as after any 1xxx code but 1000 and 1008. */
    public static final int WEBSOCKET_CLOSE_CODE = 1012;

    /** The close reason (RFC 6455 allows 123 bytes). */
    public static final String CLOSE_REASON = "service restart: " + CODE + "; reconnect with the last event id";

    /** The SSE client's wait before it reconnects, in {@code retry:}: another replica takes the runs over by then. */
    public static final long RETRY_MILLIS = 1000;

    private ServerShutdown() {
    }

    /** The human sentence: what happens, and what to do. */
    public static String message() {
        return "this replica is shutting down; its runs resume on another replica: reconnect with the last event id received "
                + "(Last-Event-ID, or the protocol's since) to follow them, nothing is lost";
    }

    /**
     * The SSE event that ends the stream: {@code event: error} with the code, and {@code retry:} so that the client
     * reconnects after a second; no {@code id:}, so the client's Last-Event-ID stays on the last event it received.
     */
    public static String sseFrame() {
        String data = JsonCodec.MAPPER.createObjectNode().put("error", CODE).put("message", message()).toString();
        return "event: error\nretry: " + RETRY_MILLIS + "\ndata: " + data + "\n\n";
    }
}
