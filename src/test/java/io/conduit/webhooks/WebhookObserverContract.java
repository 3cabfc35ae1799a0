package io.conduit.webhooks;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.restassured.response.Response;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Webhooks end to end, one subclass per run store: runs created over HTTP with a {@code webhook} on a receiver this
 * test starts on loopback (listed in the test profile's {@code conduit.webhooks.allowed-hosts} and
 * {@code private-addresses}), one for each status a run can end with (success, error, interrupted, timeout). The
 * profile ({@link #slowModel}) paces the simulator's tokens and sets a 4 s run timeout, so a long answer
 * ({@link #SLOW}) outlives it and a short one does not.
 */
abstract class WebhookObserverContract {

    static final String SECRET = "test-webhook-secret";
    /** An input the simulator answers with 1500 tokens: 15 s at 10 ms a token, past the 4 s timeout. */
    static final String SLOW = "tick ".repeat(1500).trim();

    /** The profile's settings: 10 ms a token and a 4 s run timeout, and {@code more}. */
    static Map<String, String> slowModel(Map<String, String> more) {
        Map<String, String> m = new HashMap<>(Map.of("conduit.simulator.inter-token-delay", "10ms", "conduit.runs.timeout", "4s"));
        m.putAll(more);
        return m;
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    static WebhookReceiver receiver;

    @BeforeAll
    static void startReceiver() throws Exception {
        receiver = new WebhookReceiver();
    }

    @AfterAll
    static void stopReceiver() throws Exception {
        receiver.close();
    }

    private static String thread() {
        return given().contentType("application/json").body("{}").post("/threads").then().statusCode(200).extract().path("thread_id");
    }

    private static Map<String, Object> run(String webhook, String text, Object... more) {
        Map<String, Object> body = new HashMap<>(Map.of("assistant_id", "agent", "webhook", webhook,
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", text)))));
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return body;
    }

    private static Map<String, Object> run(String webhook) {
        return run(webhook, "what time is it?");
    }

    /** The delivery's record is the run's, on its thread, ending as {@code status}, and signed. */
    private static JsonNode posted(WebhookReceiver.Delivery d, String path, String runId, String thread, String status) {
        assertThat(d.path()).isEqualTo(path);
        JsonNode body = d.body();
        assertThat(body.path("run_id").asText()).isEqualTo(runId);
        assertThat(body.path("thread_id").asText()).isEqualTo(thread);
        assertThat(body.path("status").asText()).as("status posted for run %s", runId).isEqualTo(status);
        assertThat(d.signedWith(SECRET)).as("signature %s of %s", d.signature(), d.raw()).isTrue();
        return body;
    }

    private static String idFrom(String location) {
        return location.substring(location.lastIndexOf('/') + 1);
    }

    @Test
    void anEndedRunPostsItsSignedFinalRecordOnce() throws Exception {
        String thread = thread();
        String runId = given().contentType("application/json").body(run(receiver.url("/done"))).post("/threads/{t}/runs", thread)
                .then().statusCode(200).body("kwargs.webhook", equalTo(receiver.url("/done"))).extract().path("run_id");

        JsonNode body = posted(receiver.next(runId), "/done", runId, thread, "success");
        assertThat(body.path("kwargs").path("webhook").asText()).isEqualTo(receiver.url("/done"));
        assertThat(body.path("values").path("messages").isArray()).isTrue();
        assertThat(body.has("error")).isFalse();
        assertThat(body.has("run_started_at") && body.has("run_ended_at") && body.has("webhook_sent_at")).isTrue();
        // the record it posts is the one the API answers once the run ended
        given().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).body("status", equalTo("success"));

        // a second run on the thread is posted too; by the time it is, the first was posted once only
        String second = idFrom(given().contentType("application/json").body(run(receiver.url("/done"))).post("/threads/{t}/runs/wait", thread)
                .then().statusCode(200).extract().header("Content-Location"));
        assertThat(second).isNotEqualTo(runId);
        posted(receiver.next(second), "/done", second, thread, "success");
        assertThat(receiver.waiting(runId)).isZero();
    }

    @Test
    void theLangGraphSdksRunsCreateWithAWebhookIsPosted() throws Exception {
        JsonNode r = io.conduit.NodeClient.run("langgraph-sdk-webhook.mjs", 120, "http://localhost:" + port, receiver.url("/sdk"));
        assertThat(r.path("refused").asInt()).isEqualTo(422);
        String runId = r.path("run_id").asText();
        posted(receiver.next(runId), "/sdk", runId, r.path("thread_id").asText(), "success");
    }

    /** A stateless run's thread (and record) are deleted when it ends: its webhook still goes, without values. */
    @Test
    void aStatelessRunPostsItsRecordWithoutValues() throws Exception {
        Map<String, Object> created = given().contentType("application/json").body(run(receiver.url("/stateless"))).post("/runs")
                .then().statusCode(200).extract().as(Map.class);
        String runId = (String) created.get("run_id");
        JsonNode body = posted(receiver.next(runId), "/stateless", runId, (String) created.get("thread_id"), "success");
        assertThat(body.has("values")).isFalse();
    }

    @Test
    void aReceiverFailingTwiceWith500GetsThreeAttempts() throws Exception {
        String thread = thread();
        String runId = given().contentType("application/json").body(run(receiver.url("/flaky"))).post("/threads/{t}/runs", thread)
                .then().statusCode(200).extract().path("run_id");
        posted(receiver.next(runId), "/flaky", runId, thread, "success");
        assertThat(receiver.tries("/flaky")).isEqualTo(3);
    }

    /** A node failing (here the recursion limit of 1, which the agent's second step passes) ends the run in error. */
    @Test
    void aFailedRunPostsItsErrorRecord() throws Exception {
        String thread = thread();
        Response r = given().contentType("application/json")
                .body(run(receiver.url("/failed"), "too deep", "config", Map.of("recursion_limit", 1))).post("/threads/{t}/runs/wait", thread);
        assertThat(r.statusCode()).isEqualTo(200);
        String runId = idFrom(r.header("Content-Location"));
        JsonNode body = posted(receiver.next(runId), "/failed", runId, thread, "error");
        assertThat(body.path("error").asText()).isNotBlank();
        given().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).body("status", equalTo("error"));
    }

    @Test
    void aRunPastTheTimeoutPostsItsTimeoutRecord() throws Exception {
        String thread = thread();
        Response r = given().contentType("application/json").body(run(receiver.url("/timeout"), SLOW)).post("/threads/{t}/runs/wait", thread);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JsonCodec.MAPPER.readTree(r.asString()).path("__error__").path("error").asText()).isEqualTo("TimeoutError");
        String runId = idFrom(r.header("Content-Location"));
        JsonNode body = posted(receiver.next(runId), "/timeout", runId, thread, "timeout");
        assertThat(body.path("error").asText()).startsWith("TimeoutError");
    }

    /** Cancelled while its model answers: the end the worker records, posted as interrupted. */
    @Test
    void aRunCancelledWhileRunningPostsItsInterruptedRecord() throws Exception {
        String thread = thread();
        String body = JsonCodec.MAPPER.writeValueAsString(run(receiver.url("/stopped"), SLOW, "stream_mode", List.of("values")));
        HttpResponse<InputStream> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/threads/" + thread + "/runs/stream"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        String runId = idFrom(stream.headers().firstValue("Content-Location").orElseThrow());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            // the first values event: the input is checkpointed and the model is answering
            String line;
            do {
                line = lines.readLine();
                assertThat(line).as("the run's stream ended before its first values event").isNotNull();
            } while (!line.equals("event: values"));
            given().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, runId).then().statusCode(200);
        }
        posted(receiver.next(runId), "/stopped", runId, thread, "interrupted");
        given().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).body("status", equalTo("interrupted"));
    }

    @Test
    void aRunCancelledBeforeItBeganPostsItsInterruptedRecord() throws Exception {
        String thread = thread();
        String runId = given().contentType("application/json").body(run(receiver.url("/cancelled"), "later", "after_seconds", 3600))
                .post("/threads/{t}/runs", thread).then().statusCode(200).body("status", equalTo("pending")).extract().path("run_id");
        given().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, runId).then().statusCode(200);
        posted(receiver.next(runId), "/cancelled", runId, thread, "interrupted");
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
