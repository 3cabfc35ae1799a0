package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.PackagedApp;
import io.conduit.TcpProxy;
import io.conduit.kernel.JsonCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away in the middle of a run, for longer than the store's retry budget (about 0.75 s), and comes back.
 * The packaged app runs as a process of its own and reaches the database through a proxy the test cuts and restores.
 * While it is cut: the run fails with a clear error and its client's stream ends (nothing hangs), and the replica says
 * it is not ready. Once it is back: the run's end is recorded (it was held, not left {@code running} for ever), the
 * enqueued run behind it runs and its {@code runs/wait} client gets its answer, a cancel of the failed run answers
 * with the run ended, readiness is back, the thread takes a new turn, and the log holds no double completion.
 */
class PostgresOutageTest {

    private static final Duration WAIT = PackagedApp.WAIT;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private PackagedApp app;
    private TcpProxy proxy;
    private String base;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void aRunCaughtByAnOutageEndsAndIsRecordedOnceTheStoreIsBackAndNothingWaitsForEver() throws Exception {
        proxy = new TcpProxy(env("CONDUIT_DB_HOST", "127.0.0.1"), Integer.parseInt(env("CONDUIT_DB_PORT", "5432")));
        app = new PackagedApp("outage", PackagedApp.freePort(), "postgres-outage", Map.of(
                "conduit.db.port", Integer.toString(proxy.port()),
                "conduit.simulator.time-to-first-token", "50ms",
                "conduit.simulator.inter-token-delay", "40ms",
                "conduit.runs.poll-interval", "200ms",
                // the heartbeat (every lease / 3) renews during the outage too: it must not keep a run it does not execute
                "conduit.runs.lease", "3s"));
        base = app.base();
        app.start("app");

        String thread = "outage-" + UUID.randomUUID();
        send("POST", "/threads", Map.of("thread_id", thread), 200);
        Map<String, Object> turn = Map.of("assistant_id", "agent", "stream_mode", List.of("messages-tuple", "values"),
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))));
        HttpResponse<java.util.stream.Stream<String>> streamed = http.send(post("/threads/" + thread + "/runs/stream", turn),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(streamed.statusCode()).isEqualTo(200);
        String runId = streamed.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", "");
        // the stream is read on a thread of its own, line by line, to its end
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        CompletableFuture<Void> ended = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (java.util.stream.Stream<String> body = streamed.body()) {
                body.forEach(lines::add);
                ended.complete(null);
            } catch (RuntimeException e) {
                ended.completeExceptionally(e);
            }
        });
        // a second turn waits behind it; its client waits for the answer
        CompletableFuture<HttpResponse<String>> waiting = http.sendAsync(post("/threads/" + thread + "/runs/wait", Map.of(
                "assistant_id", "agent", "multitask_strategy", "enqueue",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "And the weekend?"))))), HttpResponse.BodyHandlers.ofString());
        PackagedApp.await("the second turn to be queued", () -> send("GET", "/threads/" + thread + "/runs", null, 200).size() == 2);
        // mid-answer: the generator streams, everything before it is checkpointed
        PackagedApp.await("a token of the answer", () -> lines.stream().anyMatch(l -> l.contains("\"langgraph_node\":\"generator\"")));

        proxy.cut();
        // a request that needs the database meanwhile is told to come back, with a code
        HttpResponse<String> refused = get("/threads/" + thread);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(JsonCodec.MAPPER.readTree(refused.body()).path("code").asText()).isEqualTo("store_unavailable");
        assertThat(refused.headers().firstValue("Retry-After")).contains("1");
        // the run fails with a clear error, and its stream ends: its client is not left waiting
        ended.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertThat(lines).as("the stream's events").contains("event: metadata").contains("event: error");
        String error = lines.get(lines.lastIndexOf("event: error") + 1);
        assertThat(error).contains("persistence_failed");
        PackagedApp.await("the replica to say it is not ready", () -> status("/q/health/ready") == 503);
        JsonNode ready = JsonCodec.MAPPER.readTree(get("/q/health/ready").body());
        assertThat(ready.toString()).contains("run-worker");

        proxy.restore();
        // its end is recorded once the store is back: not left running, held by a live process
        PackagedApp.await("the failed run's end to be recorded", () -> !List.of("pending", "running")
                .contains(send("GET", "/threads/" + thread + "/runs/" + runId, null, 200).path("status").asText()));
        assertThat(send("GET", "/threads/" + thread + "/runs/" + runId, null, 200).path("status").asText()).isEqualTo("error");
        // a cancel always ends a run: this one has ended, and says so
        JsonNode cancelled = send("POST", "/threads/" + thread + "/runs/" + runId + "/cancel?action=interrupt&wait=1", null, 200);
        assertThat(cancelled.path("status").asText()).isIn("error", "interrupted");
        // the turn behind it ran, and its client got its answer
        HttpResponse<String> answer = waiting.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body().trim()).contains("\"messages\"").doesNotContain("__error__");
        PackagedApp.await("the replica to be ready again", () -> status("/q/health/ready") == 200);
        // the thread takes a new turn
        JsonNode after = send("POST", "/threads/" + thread + "/runs/wait", Map.of("assistant_id", "agent",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Thanks")))), 200);
        assertThat(after.path("messages").toString()).contains("Thanks");
        assertThat(send("GET", "/threads/" + thread, null, 200).path("status").asText()).isEqualTo("idle");

        String log = Files.readString(Path.of("target", "postgres-outage-app.log"));
        assertThat(log).as("no promise completed twice (vertx-sql-client#1706)").doesNotContain("Result is already complete");
        assertThat(log).contains("Recording the end of run " + runId);
    }

    private HttpRequest post(String path, Object body) throws Exception {
        return HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body))).build();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private int status(String path) throws Exception {
        return get(path).statusCode();
    }

    private JsonNode send(String method, String path, Object body, int expected) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT);
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body)));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isEqualTo(expected);
        return JsonCodec.MAPPER.readTree(r.body());
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
