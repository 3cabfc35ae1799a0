package io.conduit.agui;

import io.conduit.http.Callers;
import io.conduit.http.ClientJson;
import io.conduit.http.ErrorBody;
import io.conduit.http.RequestRates;
import io.conduit.http.TextFramesOnly;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.delivery.DeliveryConfig;
import io.conduit.runs.delivery.ServerShutdown;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.OnBinaryMessage;
import io.quarkus.websockets.next.OnClose;
import io.quarkus.websockets.next.OnOpen;
import io.quarkus.websockets.next.OnTextMessage;
import io.quarkus.websockets.next.WebSocket;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * AG-UI over WebSocket: {@code GET /ag-ui} upgraded with the subprotocol {@code ag-ui} ({@code ?assistant_id=}, default
 * {@code agent}). Each text frame from the client is a {@code RunAgentInput}; the run's AG-UI events come back one per
 * text frame, the same events as over SSE. Runs of one connection go one after another: a frame's run starts once
 * the previous run's last event has been sent. Bad input is answered with a RUN_ERROR frame (the connection stays open);
 * a connection without the subprotocol is closed with 1002, one past this replica's stream limit with 4429. A client
 * that goes away stops its run.
 */
@WebSocket(path = "/ag-ui")
public class AgUiSocket {

    static final String SUBPROTOCOL = "ag-ui";

    /** A connection's permit and the run it follows. */
    private static final class Session {
        final StreamPermits.Permit permit;
        final Context context;
        volatile AgUiRuns.Started started;
        volatile AgUiSocketRun run;
        /** The replica drains: the socket closes, but its run is handed back, not stopped. */
        volatile boolean draining;
        /** Completes when the last frame's run has been sent: the next frame's run starts then. */
        volatile CompletableFuture<Void> last = CompletableFuture.completedFuture(null);

        Session(StreamPermits.Permit permit, Context context) {
            this.permit = permit;
            this.context = context;
        }
    }

    private final AgUiRuns runs;
    private final Vertx vertx;
    private final StreamPermits permits;
    private final DeliveryConfig delivery;
    private final RequestRates rates;
    private final Map<String, Session> open = new ConcurrentHashMap<>();

    AgUiSocket(AgUiRuns runs, Vertx vertx, StreamPermits permits, DeliveryConfig delivery, RequestRates rates) {
        this.rates = rates;
        this.runs = runs;
        this.vertx = vertx;
        this.permits = permits;
        this.delivery = delivery;
    }

    @OnOpen
    public Uni<Void> onOpen(WebSocketConnection connection) {
        if (!SUBPROTOCOL.equals(connection.subprotocol())) {
            return connection.close(new CloseReason(1002, "ask for the ag-ui subprotocol"));
        }
        StreamPermits.Permit permit = permits.tryAcquire(StreamTransport.AGUI_WS);
        if (permit == null) {
            return connection.close(new CloseReason(StreamPermits.WEBSOCKET_CLOSE_CODE, StreamPermits.CODE + ": " + permits.refusal()));
        }
        Session session = new Session(permit, vertx.getOrCreateContext());
        open.put(connection.id(), session);
        permit.onShutdown(() -> session.context.runOnContext(x -> shutDown(connection, session)));
        if (connection.isClosed()) {
            onClose(connection); // the client left meanwhile
        }
        return Uni.createFrom().voidItem();
    }

    /**
     * Queues the frame's run behind the connection's current one and returns at once: the inbound callbacks stay free,
     * so a client that closes mid-run is heard (and its run stopped) while the run goes on.
     */
    @OnTextMessage
    public Uni<Void> onMessage(String text, WebSocketConnection connection) {
        Session s = open.get(connection.id());
        if (s == null) {
            return Uni.createFrom().voidItem();
        }
        CompletableFuture<Void> previous = s.last;
        CompletableFuture<Void> next = new CompletableFuture<>();
        s.last = next; // frames arrive one at a time (serial inbound processing)
        previous.whenComplete((v, f) -> s.context.runOnContext(x -> run(text, connection, s)
                .subscribe().with(ok -> next.complete(null), err -> next.complete(null))));
        return Uni.createFrom().voidItem();
    }

    /** One frame: its run, followed until its last event was sent; or one RUN_ERROR when it cannot start. */
    private Uni<Void> run(String text, WebSocketConnection connection, Session s) {
        if (connection.isClosed()) {
            return Uni.createFrom().voidItem();
        }
        RunAgentInput input;
        try {
            input = RunAgentInput.parse(ClientJson.parse(text));
        } catch (Exception e) {
            return refuse(connection, e);
        }
        // each frame starts a run: it counts as a request of its caller (requests per minute), as over HTTP
        LimitExceededException refused = rates.take(connection.handshakeRequest().header(RequestRates.HEADER));
        if (refused != null) {
            return refuse(connection, refused);
        }
        return runs.start(assistant(connection.handshakeRequest().query()), input, Callers.fromHeader(connection.handshakeRequest().header(Callers.HEADER))).chain(started -> {
            AgUiSocketRun run = new AgUiSocketRun(connection, s.context, delivery);
            s.started = started;
            s.run = run;
            Runnable unfollow = runs.follow(started, run);
            if (connection.isClosed()) {
                onClose(connection);
            }
            return Uni.createFrom().completionStage(run.done()).eventually(unfollow::run);
        }).onFailure().recoverWithUni(f -> refuse(connection, f));
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
        Session s = open.remove(connection.id());
        if (s == null) {
            return;
        }
        s.permit.release();
        if (s.run != null) {
            s.run.cancel();
        }
        if (s.started != null && s.started.cancelOnDisconnect() && !s.draining) {
            runs.cancel(s.started);
        }
    }

    /**
     * The replica shuts down: a run being sent ends with RUN_ERROR {@code server_shutting_down} after what waits
     * ({@link AgUiSocketRun#shutDown}); a run that has ended, or an idle socket, only closes; all with 1012 "service
     * restart".
     */
    private static void shutDown(WebSocketConnection connection, Session s) {
        s.draining = true;
        AgUiSocketRun run = s.run;
        if (run != null && !run.done().isDone()) {
            run.shutDown();
        } else {
            closeForShutdown(connection, false);
        }
    }

    /** The last words of a draining replica's socket: RUN_ERROR {@code server_shutting_down} for a run cut short, then 1012. */
    static void closeForShutdown(WebSocketConnection connection, boolean runCut) {
        if (connection.isClosed()) {
            return;
        }
        Uni<Void> word = runCut ? connection.sendText(AgUiEvents.runError(ServerShutdown.CODE, ServerShutdown.message()).toString())
                .onFailure().recoverWithNull() : Uni.createFrom().voidItem();
        word.chain(() -> connection.close(new CloseReason(ServerShutdown.WEBSOCKET_CLOSE_CODE, ServerShutdown.CLOSE_REASON)))
                .subscribe().with(x -> { }, f -> { });
    }

    /** A run that could not start: one RUN_ERROR frame, with the error's code. */
    private static Uni<Void> refuse(WebSocketConnection connection, Throwable f) {
        String code;
        String message;
        if (f instanceof AgUiRunBody.Refusal r) {
            code = r.code;
            message = r.getMessage();
        } else {
            ErrorBody e = ErrorBody.of(f);
            code = e.code();
            message = e.detail();
        }
        return connection.sendText(AgUiEvents.runError(code, message).toString());
    }

    /** The query's {@code assistant_id}, else the default assistant. */
    static String assistant(String query) {
        if (query != null) {
            for (String p : query.split("&")) {
                if (p.startsWith("assistant_id=") && p.length() > "assistant_id=".length()) {
                    return URLDecoder.decode(p.substring("assistant_id=".length()), StandardCharsets.UTF_8);
                }
            }
        }
        return AgUiRoutes.DEFAULT_ASSISTANT;
    }
}
