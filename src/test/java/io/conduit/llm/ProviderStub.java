package io.conduit.llm;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A provider's chat-completions endpoint on a real HTTP server (Vert.x, random port) that plays scripted replies in
 * order (the last one again once the script runs out) and records every request body.
 */
public final class ProviderStub implements AutoCloseable {

    public sealed interface Reply {
    }

    /** An SSE stream: one {@code data:} frame per payload, then {@code data: [DONE]} unless {@code done} is false. */
    public record Stream(List<String> payloads, boolean done) implements Reply {
    }

    /** Some frames, then the TCP connection is closed in the middle of the response. */
    public record Cut(List<String> payloads) implements Reply {
    }

    public record Status(int code, String body) implements Reply {
    }

    /** No answer at all, not even the status line: a provider that accepted the request and hangs. */
    public record Hang() implements Reply {
    }

    /** Some frames, then silence: the response is never ended (a stalled provider). */
    public record Stall(List<String> payloads) implements Reply {
    }

    private final Vertx vertx = Vertx.vertx();
    private final ConcurrentLinkedDeque<Reply> script = new ConcurrentLinkedDeque<>();
    private final List<JsonObject> requests = new CopyOnWriteArrayList<>();
    private volatile Reply last;
    private final HttpServer server;

    private ProviderStub() throws Exception {
        server = vertx.createHttpServer()
                .requestHandler(this::handle)
                .listen(0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    public static ProviderStub start() throws Exception {
        return new ProviderStub();
    }

    public String baseUrl() {
        return "http://localhost:" + server.actualPort() + "/v1";
    }

    public ProviderStub then(Reply reply) {
        script.add(reply);
        return this;
    }

    public List<JsonObject> requests() {
        return requests;
    }

    /** Forgets the script, the last reply and the requests: one stub serves a whole Quarkus test class. */
    public void reset() {
        script.clear();
        last = null;
        requests.clear();
    }

    private void handle(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            if (!request.path().equals("/v1/chat/completions")) {
                request.response().setStatusCode(404).end();
                return;
            }
            requests.add(body.toJsonObject());
            Reply next = script.poll();
            if (next == null) {
                next = last;
            }
            last = next;
            reply(request, next);
        });
    }

    private void reply(HttpServerRequest request, Reply reply) {
        HttpServerResponse response = request.response();
        switch (reply) {
            case Status s -> response.setStatusCode(s.code()).putHeader("Content-Type", "application/json").end(s.body());
            case Stream s -> {
                startSse(response);
                s.payloads().forEach(p -> response.write(frame(p)));
                if (s.done()) {
                    response.write(frame("[DONE]"));
                }
                response.end();
            }
            case Hang h -> {
                // the request stays open until the stub closes
            }
            case Stall s -> {
                startSse(response);
                s.payloads().forEach(p -> response.write(frame(p)));
            }
            case Cut c -> {
                startSse(response);
                Buffer frames = Buffer.buffer();
                c.payloads().forEach(p -> frames.appendBuffer(frame(p)));
                response.write(frames).onComplete(written -> request.connection().close());
            }
        }
    }

    private static void startSse(HttpServerResponse response) {
        response.setChunked(true).putHeader("Content-Type", "text/event-stream");
    }

    private static Buffer frame(String payload) {
        return Buffer.buffer("data: " + payload + "\n\n");
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
