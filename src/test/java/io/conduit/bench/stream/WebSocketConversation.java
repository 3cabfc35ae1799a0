package io.conduit.bench.stream;

import io.vertx.core.Future;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketConnectOptions;

/**
 * A chat user on the thread protocol over WebSocket: opens {@code /threads/{tid}/stream/events}, sends
 * {@code run.start} and subscribes to messages and lifecycle, counts the text deltas, and takes its next turn when
 * the root lifecycle event says the run is over. Its thread is made on, and its socket opened to, {@code replica}.
 */
class WebSocketConversation extends ProtocolConversation {
    final Load.Replica replica;
    WebSocket socket;

    WebSocketConversation(Load load, boolean slow) {
        this(load, slow, new Load.Replica(load.host, load.port));
    }

    WebSocketConversation(Load load, boolean slow, Load.Replica replica) {
        super(load, slow);
        this.replica = replica;
    }

    /** Makes the conversation's thread. */
    Future<String> newThread() {
        return load.createThread(replica);
    }

    @Override
    final void start() {
        newThread().compose(tid -> {
            threadId = tid;
            return load.ws.connect(new WebSocketConnectOptions()
                    .setHost(replica.host()).setPort(replica.port()).setURI("/threads/" + tid + "/stream/events"));
        })
                .onSuccess(this::opened)
                .onFailure(e -> retryLater("ws connect: " + e));
    }

    private void opened(WebSocket ws) {
        socket = ws;
        turns = 0;
        commandId = 0;
        ws.textMessageHandler(this::received);
        ws.exceptionHandler(e -> load.tally.error("ws: " + e));
        ws.closeHandler(v -> {
            stopReadingSlowly();
            if (socket == ws) {
                socket = null;
                retryLater("ws closed by the server: " + ws.closeStatusCode() + " " + ws.closeReason());
            }
        });
        readSlowly(ws);
        opened();
    }

    /** The socket is open: the first turn. */
    void opened() {
        turn();
    }

    /** A text frame from the server. */
    void received(String frame) {
        frame(frame);
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
    final void close() {
        WebSocket ws = socket;
        socket = null;
        leaveThread();
        stopReadingSlowly();
        if (ws != null && !ws.isClosed()) {
            ws.close();
        }
    }
}
