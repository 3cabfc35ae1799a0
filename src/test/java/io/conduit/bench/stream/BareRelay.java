package io.conduit.bench.stream;

import io.vertx.core.AbstractVerticle;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streaming benchmark's floor: a plain Vert.x server that speaks just enough of the thread protocol for
 * {@link StreamLoad} (create a thread, {@code run.start}, {@code subscription.subscribe}, then paced text deltas of
 * the same shape and size as Conduit's, stamped with their emit time, and the root {@code completed}), with nothing
 * behind it: no graph, no log, no outbox. What it delivers with the load client on the same machine is what this
 * machine's kernel, Netty and the client allow, so Conduit's figures can be read against it (docs/benchmarks.md).
 *
 * <p>Usage: {@code bench/bare-relay.sh} (port 18191, 300 tokens 20 ms apart, as {@code bench/stream-server.sh}).
 */
public final class BareRelay extends AbstractVerticle {

    private static final int TOKENS = Integer.getInteger("bare.tokens", 300);
    private static final long INTER_TOKEN_MS = Long.getLong("bare.interTokenMillis", 20);
    private static final AtomicLong RUNS = new AtomicLong();

    public static void main(String[] args) {
        int port = Integer.getInteger("bare.port", 18191);
        // Quarkus's default event loop count unless told
        int loops = Integer.getInteger("bare.loops", 2 * Runtime.getRuntime().availableProcessors());
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(loops));
        vertx.deployVerticle(() -> new BareRelay(port), new DeploymentOptions().setInstances(loops))
                .onSuccess(id -> System.out.println("bare relay on " + port + ", " + loops + " event loops"))
                .onFailure(e -> {
                    e.printStackTrace();
                    System.exit(1);
                });
    }

    private final int port;

    private BareRelay(int port) {
        this.port = port;
    }

    @Override
    public void start() {
        vertx.createHttpServer(new HttpServerOptions().setPort(port).setTcpNoDelay(true))
                .webSocketHandler(this::socket)
                .requestHandler(req -> {
                    if (req.path().equals("/threads")) {
                        req.response().putHeader("content-type", "application/json")
                                .end("{\"thread_id\":\"" + UUID.randomUUID() + "\"}");
                    } else {
                        req.response().setStatusCode(204).end(); // a run's cancel: the run stops with its socket
                    }
                })
                .listen();
    }

    private void socket(ServerWebSocket ws) {
        AtomicLong seq = new AtomicLong();
        long[] timer = {-1};
        ws.textMessageHandler(text -> {
            JsonObject command = new JsonObject(text);
            long id = command.getLong("id");
            if ("run.start".equals(command.getString("method"))) {
                String runId = "run-" + RUNS.incrementAndGet();
                ws.writeTextMessage("{\"type\":\"success\",\"id\":" + id + ",\"result\":{\"run_id\":\"" + runId + "\"}}");
                timer[0] = vertx.setTimer(INTER_TOKEN_MS, t -> token(ws, seq, 0, timer));
            } else {
                ws.writeTextMessage("{\"type\":\"success\",\"id\":" + id + ",\"result\":{}}");
            }
        });
        ws.closeHandler(v -> vertx.cancelTimer(timer[0]));
    }

    /** Token {@code n} of the run: the delta frame Conduit sends for a simulator token, then the next one's timer. */
    private void token(ServerWebSocket ws, AtomicLong seq, int n, long[] timer) {
        if (ws.isClosed()) {
            return;
        }
        long stamp = Tally.nowMicros(); // the client's clock, as the simulator's stamps
        long s = seq.incrementAndGet();
        if (n == TOKENS) {
            ws.writeTextMessage(event(s, stamp, "lifecycle", "{\"event\":\"completed\",\"graph_id\":\"agent\"}"));
            return;
        }
        ws.writeTextMessage(event(s, stamp, "messages",
                "{\"event\":\"content-block-delta\",\"index\":0,\"delta\":{\"type\":\"text-delta\",\"text\":\"" + stamp + " \"}}"));
        timer[0] = vertx.setTimer(INTER_TOKEN_MS, t -> token(ws, seq, n + 1, timer));
    }

    private static String event(long seq, long micros, String method, String data) {
        return "{\"type\":\"event\",\"event_id\":\"" + seq + "\",\"seq\":" + seq + ",\"method\":\"" + method
                + "\",\"params\":{\"namespace\":[],\"timestamp\":" + micros / 1000 + ",\"data\":" + data + "}}";
    }
}
