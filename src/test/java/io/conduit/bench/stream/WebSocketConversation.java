package io.conduit.bench.stream;

import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * A chat user on the thread protocol over WebSocket: opens {@code /threads/{tid}/stream/events}, sends
 * {@code run.start} and subscribes to messages and lifecycle, counts the text deltas, and takes its next turn when
 * the root lifecycle event says the run is over.
 */
final class WebSocketConversation extends ProtocolConversation {
    private WebSocket socket;

    WebSocketConversation(Load load, boolean slow) {
        super(load, slow);
    }

    @Override
    void start() {
        load.createThread().compose(tid -> {
            threadId = tid;
            return load.ws.connect(new WebSocketConnectOptions()
                .setHost(load.host).setPort(load.port).setURI("/threads/" + tid + "/stream/events"));
        })
                .onSuccess(this::opened)
                .onFailure(e -> retryLater("ws connect: " + e));
    }

    private void opened(WebSocket ws) {
        socket = ws;
        turns = 0;
        commandId = 0;
        ws.textMessageHandler(this::frame);
        ws.exceptionHandler(e -> load.tally.error("ws: " + e));
        ws.closeHandler(v -> {
            stopReadingSlowly();
            if (socket == ws) {
                socket = null;
                retryLater("ws closed by the server: " + ws.closeStatusCode() + " " + ws.closeReason());
            }
        });
        readSlowly(ws);
        turn();
    }

    @Override
    void turn() {
        turns++;
        markTurnStart();
        socket.writeTextMessage(load.runStart(++commandId));
        if (turns == 1) {
            socket.writeTextMessage(load.subscribe(++commandId));
        }
    }

    @Override
    void close() {
        WebSocket ws = socket;
        socket = null;
        cancelRunInFlight();
        stopReadingSlowly();
        if (ws != null && !ws.isClosed()) {
            ws.close();
        }
    }
}
