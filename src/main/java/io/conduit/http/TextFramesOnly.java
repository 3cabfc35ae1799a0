package io.conduit.http;

import io.quarkus.websockets.next.CloseReason;

/**
 * What a WebSocket door answers a binary frame with: its protocol's messages are JSON text frames, so a binary one is
 * refused with 1003 (RFC 6455, "unsupported data") rather than ignored, which would leave its sender waiting.
 */
public final class TextFramesOnly {

    public static final CloseReason CLOSE = new CloseReason(1003, "unsupported_data: messages are JSON text frames");

    private TextFramesOnly() {
    }
}
