package io.conduit.stream;

import io.conduit.http.Callers;
import io.conduit.http.RequestRates;
import io.conduit.http.TextFramesOnly;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnPongMessage;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /threads/{thread_id}/stream/events} upgraded: the thread protocol over WebSocket, one JSON message per
 * text frame, commands answered in-band and events sent as they come. A bad frame gets an error answer and the
 * connection stays open; a frame past {@code conduit.stream.max-frame-bytes} closes it with 1009; a thread the caller
 * may not see closes it with 4403, and one past this replica's stream limit with 4429. A run ending never closes
 * it; the replica shutting down closes it with 1012 "service restart". Everything here runs on the event loop.
 */
@WebSocket(path = "/threads/{thread_id}/stream/events")
public class ThreadSocket {

    static final int FORBIDDEN = 4403;
    static final int TOO_BIG = 1009;

    private final ThreadCommands commands;
    private final ProtocolEventLogs logs;
    private final ThreadAccess access;
    private final StreamConfig config;
    private final OpenSockets open;
    private final Vertx vertx;
    private final StreamPermits permits;
    private final DeliveryConfig delivery;
    private final RequestRates rates;

    ThreadSocket(ThreadCommands commands, ProtocolEventLogs logs, ThreadAccess access, StreamConfig config, OpenSockets open, Vertx vertx,
                 StreamPermits permits, DeliveryConfig delivery, RequestRates rates) {
        this.rates = rates;
        this.delivery = delivery;
        this.permits = permits;
        this.commands = commands;
        this.logs = logs;
        this.access = access;
        this.config = config;
        this.open = open;
        this.vertx = vertx;
    }

    @OnOpen
    public Uni<Void> onOpen(WebSocketConnection connection) {
        String threadId = connection.pathParam("thread_id");
        String subprotocol = connection.subprotocol();
        if (subprotocol != null && !subprotocol.isEmpty()) {
            // the thread protocol has no subprotocol; one negotiated here (ag-ui is served on /ag-ui) would promise
            // the client a protocol this endpoint does not speak
            return connection.close(new CloseReason(1002, "this endpoint speaks LangGraph's thread protocol, not " + subprotocol
                    + (subprotocol.equals("ag-ui") ? ": AG-UI is served on /ag-ui" : "")));
        }
        Context context = vertx.getOrCreateContext(); // the connection's: its event loop writes its socket
        return access.allows(threadId, headers(connection)).chain(allowed -> {
            if (!Boolean.TRUE.equals(allowed)) {
                return connection.close(new CloseReason(FORBIDDEN, "permission_denied: this connection may not see thread " + threadId));
            }
            StreamPermits.Permit permit = permits.tryAcquire(StreamTransport.PROTOCOL_WS);
            if (permit == null) { // this replica's streams are at their limit: the SDK reconnects after a 4429
                return connection.close(new CloseReason(StreamPermits.WEBSOCKET_CLOSE_CODE, StreamPermits.CODE + ": " + permits.refusal()));
            }
            SocketSession s = new SocketSession(threadId, connection, (t, sink) -> new ConnectionSubscriptions(t, () -> logs.log(t), sink),
                    config, delivery, vertx, context, () -> {
                        open.remove(connection.id());
                        permit.release();
                    });
            open.put(connection.id(), s);
            permit.onShutdown(s.writer::shutDown); // the replica drains: 1012 "service restart", the SDK reconnects
            if (connection.isClosed()) {
                s.close(); // the client left while we checked
            }
            return Uni.createFrom().voidItem();
        });
    }

    @OnTextMessage
    public Uni<Void> onMessage(String text, WebSocketConnection connection) {
        SocketSession s = open.get(connection.id());
        if (s == null) {
            return Uni.createFrom().voidItem(); // refused at open, or gone
        }
        if (text.length() > config.maxFrameBytes() / 3 && text.getBytes(StandardCharsets.UTF_8).length > config.maxFrameBytes()) {
            s.close();
            return connection.close(new CloseReason(TOO_BIG, "message_too_big: frames are at most " + config.maxFrameBytes() + " bytes"));
        }
        ProtocolCommand command;
        try {
            command = ProtocolCommand.parse(text);
        } catch (ProtocolCommand.Malformed m) {
            s.writer.answer(CommandAnswers.error(m.id(), "invalid_argument", m.getMessage()).toString());
            return Uni.createFrom().voidItem();
        }
        // a command that starts a run counts as a request of its caller (requests per minute), as over HTTP
        LimitExceededException refused = ThreadCommands.startsRun(command.method())
                ? rates.take(connection.handshakeRequest().header(RequestRates.HEADER)) : null;
        if (refused != null) {
            String[] e = ProtocolErrors.of(refused);
            s.writer.answer(CommandAnswers.error(command.id(), e[0], e[1]).toString());
            return Uni.createFrom().voidItem();
        }
        return commands.handle(s.threadId, command, s.subscriptions, Callers.fromHeader(connection.handshakeRequest().header(Callers.HEADER))).invoke(answer -> {
            if (answer != null) {
                s.writer.answer(answer.toString());
            }
        }).replaceWithVoid();
    }

    @OnPongMessage
    @io.smallrye.common.annotation.NonBlocking
    public void onPong(Buffer data, WebSocketConnection connection) {
        SocketSession s = open.get(connection.id());
        if (s != null) {
            s.ponged();
        }
    }

    /** A binary frame is no message of the protocol: the socket closes with 1003. */
    @OnBinaryMessage
    public Uni<Void> onBinary(Buffer data, WebSocketConnection connection) {
        onClose(connection);
        return connection.close(TextFramesOnly.CLOSE);
    }

    @OnClose
    @io.smallrye.common.annotation.NonBlocking
    public void onClose(WebSocketConnection connection) {
        SocketSession s = open.get(connection.id());
        if (s != null) {
            s.close();
        }
    }

    private static Map<String, List<String>> headers(WebSocketConnection connection) {
        Map<String, List<String>> out = new HashMap<>();
        connection.handshakeRequest().headers().forEach((k, v) -> out.put(k.toLowerCase(java.util.Locale.ROOT), v));
        return out;
    }
}
