package io.conduit.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook receiver on a real HTTP server (Vert.x, loopback, random port): it keeps each POST it accepts by the
 * {@code run_id} of its body, so a test waits for its own run's delivery whatever other runs post meanwhile. A path
 * starting {@code /flaky} answers 500 to its first two tries.
 */
final class WebhookReceiver implements AutoCloseable {

    /** One POST the receiver accepted: its path, its body (raw and parsed) and its signature headers. */
    record Delivery(String path, String raw, JsonNode body, String timestamp, String signature) {

        /** Whether the signature is the HMAC of {@code timestamp.body} with {@code secret}. */
        boolean signedWith(String secret) {
            return signature != null && timestamp != null
                    && signature.equals(new WebhookSignature(secret).sign(Long.parseLong(timestamp), raw));
        }
    }

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    private final Map<String, BlockingQueue<Delivery>> byRun = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> tries = new ConcurrentHashMap<>();

    WebhookReceiver() throws Exception {
        server = vertx.createHttpServer().requestHandler(this::handle)
                .listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** The URL of {@code path} on this receiver. */
    String url(String path) {
        return "http://127.0.0.1:" + server.actualPort() + path;
    }

    /** How many POSTs {@code path} got, answered 500 or not. */
    int tries(String path) {
        AtomicInteger n = tries.get(path);
        return n == null ? 0 : n.get();
    }

    /** The next delivery of {@code runId}, waited for up to a minute; fails the test if none came. */
    Delivery next(String runId) throws InterruptedException {
        Delivery d = queue(runId).poll(60, TimeUnit.SECONDS);
        if (d == null) {
            throw new AssertionError("no webhook delivery for run " + runId);
        }
        return d;
    }

    /** How many deliveries of {@code runId} are there and not yet taken by {@link #next}. */
    int waiting(String runId) {
        return queue(runId).size();
    }

    private BlockingQueue<Delivery> queue(String runId) {
        return byRun.computeIfAbsent(runId, k -> new LinkedBlockingQueue<>());
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(buffer -> {
            String path = request.path();
            int n = tries.computeIfAbsent(path, k -> new AtomicInteger()).incrementAndGet();
            if (path.startsWith("/flaky") && n <= 2) {
                request.response().setStatusCode(500).end();
                return;
            }
            String raw = buffer.toString();
            JsonNode body;
            try {
                body = JsonCodec.MAPPER.readTree(raw);
            } catch (IOException e) {
                request.response().setStatusCode(400).end();
                return;
            }
            queue(body.path("run_id").asText()).add(new Delivery(path, raw, body,
                    request.getHeader(WebhookSignature.TIMESTAMP_HEADER), request.getHeader(WebhookSignature.SIGNATURE_HEADER)));
            request.response().setStatusCode(200).end();
        });
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
