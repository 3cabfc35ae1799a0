package io.conduit.webhooks;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks end to end: runs created over HTTP with a {@code webhook} on a receiver this test starts on loopback
 * (listed in the test profile's {@code conduit.webhooks.allowed-hosts} and {@code private-addresses}).
 */
@QuarkusTest
class WebhookObserverTest {

    /** One POST the receiver got. */
    record Delivery(String path, String body, String timestamp, String signature) {
    }

    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private static HttpServer receiver;
    private static final BlockingQueue<Delivery> received = new LinkedBlockingQueue<>();
    private static final Map<String, AtomicInteger> byRun = new ConcurrentHashMap<>();
    private static final AtomicInteger flakyAttempts = new AtomicInteger();

    @BeforeAll
    static void startReceiver() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String path = exchange.getRequestURI().getPath();
            // the flaky receiver fails its first two attempts with a 500
            int status = path.equals("/flaky") && flakyAttempts.incrementAndGet() <= 2 ? 500 : 200;
            if (status == 200) {
                byRun.computeIfAbsent(JsonCodec.MAPPER.readTree(body).path("run_id").asText(), k -> new AtomicInteger()).incrementAndGet();
                received.add(new Delivery(path, body, exchange.getRequestHeaders().getFirst(WebhookSignature.TIMESTAMP_HEADER),
                        exchange.getRequestHeaders().getFirst(WebhookSignature.SIGNATURE_HEADER)));
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterAll
    static void stopReceiver() {
        receiver.stop(0);
    }

    private static String hook(String path) {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + path;
    }

    private static String thread() {
        return given().contentType("application/json").body("{}").post("/threads").then().statusCode(200).extract().path("thread_id");
    }

    private static Map<String, Object> run(String webhook) {
        return Map.of("assistant_id", "agent", "webhook", webhook,
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "what time is it?"))));
    }

    private static Delivery next() throws InterruptedException {
        Delivery d = received.poll(60, TimeUnit.SECONDS);
        assertThat(d).as("a webhook delivery").isNotNull();
        return d;
    }

    @Test
    void anEndedRunPostsItsSignedFinalRecordOnce() throws Exception {
        String thread = thread();
        String runId = given().contentType("application/json").body(run(hook("/done"))).post("/threads/{t}/runs", thread)
                .then().statusCode(200).body("kwargs.webhook", equalTo(hook("/done"))).extract().path("run_id");

        Delivery d = next();
        assertThat(d.path()).isEqualTo("/done");
        JsonNode body = JsonCodec.MAPPER.readTree(d.body());
        assertThat(body.path("run_id").asText()).isEqualTo(runId);
        assertThat(body.path("thread_id").asText()).isEqualTo(thread);
        assertThat(body.path("status").asText()).isEqualTo("success");
        assertThat(body.path("kwargs").path("webhook").asText()).isEqualTo(hook("/done"));
        assertThat(body.path("values").path("messages").isArray()).isTrue();
        assertThat(body.has("run_started_at") && body.has("run_ended_at") && body.has("webhook_sent_at")).isTrue();
        assertThat(d.signature()).isEqualTo(new WebhookSignature("test-webhook-secret").sign(Long.parseLong(d.timestamp()), d.body()));
        // the record it posts is the one the API answers once the run ended
        given().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).body("status", equalTo("success"));

        // a second run's delivery comes after the first's: by then the first was posted once only
        String second = given().contentType("application/json").body(run(hook("/done"))).post("/threads/{t}/runs/wait", thread)
                .then().statusCode(200).extract().header("Content-Location");
        Delivery d2 = next();
        assertThat(JsonCodec.MAPPER.readTree(d2.body()).path("run_id").asText()).isNotEqualTo(runId);
        assertThat(second).contains(JsonCodec.MAPPER.readTree(d2.body()).path("run_id").asText());
        assertThat(byRun.get(runId).get()).isEqualTo(1);
    }

    @Test
    void theLangGraphSdksRunsCreateWithAWebhookIsPosted() throws Exception {
        JsonNode r = io.conduit.NodeClient.run("langgraph-sdk-webhook.mjs", 120, "http://localhost:" + port, hook("/sdk"));
        assertThat(r.path("refused").asInt()).isEqualTo(422);

        Delivery d = next();
        assertThat(d.path()).isEqualTo("/sdk");
        JsonNode body = JsonCodec.MAPPER.readTree(d.body());
        assertThat(body.path("run_id").asText()).isEqualTo(r.path("run_id").asText());
        assertThat(body.path("status").asText()).isEqualTo("success");
    }

    /** A stateless run's thread (and record) are deleted when it ends: its webhook still goes, without values. */
    @Test
    void aStatelessRunPostsItsRecordWithoutValues() throws Exception {
        String runId = given().contentType("application/json").body(run(hook("/stateless"))).post("/runs")
                .then().statusCode(200).extract().path("run_id");
        Delivery d = next();
        assertThat(d.path()).isEqualTo("/stateless");
        JsonNode body = JsonCodec.MAPPER.readTree(d.body());
        assertThat(body.path("run_id").asText()).isEqualTo(runId);
        assertThat(body.path("status").asText()).isEqualTo("success");
        assertThat(body.has("values")).isFalse();
        assertThat(d.signature()).isEqualTo(new WebhookSignature("test-webhook-secret").sign(Long.parseLong(d.timestamp()), d.body()));
    }

    @Test
    void aReceiverFailingTwiceWith500GetsThreeAttempts() throws Exception {
        String thread = thread();
        String runId = given().contentType("application/json").body(run(hook("/flaky"))).post("/threads/{t}/runs", thread)
                .then().statusCode(200).extract().path("run_id");

        Delivery d = next();
        assertThat(d.path()).isEqualTo("/flaky");
        assertThat(JsonCodec.MAPPER.readTree(d.body()).path("run_id").asText()).isEqualTo(runId);
        assertThat(flakyAttempts.get()).isEqualTo(3);
    }

    @Test
    void aRunCancelledBeforeItBeganPostsItsInterruptedRecord() throws Exception {
        String thread = thread();
        Map<String, Object> later = new java.util.HashMap<>(run(hook("/cancelled")));
        later.put("after_seconds", 3600);
        String runId = given().contentType("application/json").body(later).post("/threads/{t}/runs", thread)
                .then().statusCode(200).body("status", equalTo("pending")).extract().path("run_id");
        given().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, runId).then().statusCode(200);

        Delivery d = next();
        assertThat(d.path()).isEqualTo("/cancelled");
        JsonNode body = JsonCodec.MAPPER.readTree(d.body());
        assertThat(body.path("run_id").asText()).isEqualTo(runId);
        assertThat(body.path("status").asText()).isEqualTo("interrupted");
    }

    @Test
    void aWebhookToAHostNotListedIsRefusedAtCreation() {
        String thread = thread();
        given().contentType("application/json").body(run("https://hooks.example.com/x")).post("/threads/{t}/runs", thread)
                .then().statusCode(422).body("code", equalTo("webhook_not_allowed"));
        given().contentType("application/json").body(run("http://localhost:1/x")).post("/runs/wait")
                .then().statusCode(422).body("code", equalTo("webhook_not_allowed"));
        given().contentType("application/json").body(run("ftp://127.0.0.1/x")).post("/threads/{t}/runs/stream", thread)
                .then().statusCode(422).body("code", equalTo("invalid_webhook"));
        given().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
    }
}
