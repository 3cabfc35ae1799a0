package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.emptyOrNullString;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Each limit of a replica answers 429 with {@code Retry-After} and the API's error body, on the REST and the
 * streaming routes alike, and refuses before anything is created. Runs are delayed an hour ({@code after_seconds})
 * so that they stay queued for as long as the test needs, and are cancelled at the end.
 */
@QuarkusTest
@TestProfile(LimitsTest.Small.class)
class LimitsTest {

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    public static class Small implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.limits.max-streams", "2",
                    "conduit.limits.max-active-runs", "3",
                    "conduit.limits.max-queued-runs-per-thread", "2",
                    "conduit.limits.retry-after", "7s");
        }
    }

    private static Map<String, Object> later(Object... more) {
        List<Object> all = new ArrayList<>(List.of("after_seconds", 3600));
        all.addAll(List.of(more));
        return Api.run("hello", all.toArray());
    }

    private static void tooMany(Response r, String code) {
        r.then().statusCode(429).header("Retry-After", "7").contentType("application/json")
                .body("code", equalTo(code)).body("detail", not(emptyOrNullString()));
    }

    private static void cancel(String thread, String run) {
        given().when().post("/threads/{t}/runs/{r}/cancel", thread, run).then().statusCode(org.hamcrest.Matchers.lessThan(300));
    }

    @Test
    void aThreadQueuesAtMostItsLimitOfRuns() {
        String thread = Api.newThread("queue");
        String first = Api.start(thread, later());
        String second = Api.start(thread, later());
        tooMany(given().contentType("application/json").body(later()).when().post("/threads/{t}/runs", thread), "too_many_queued_runs");
        tooMany(given().contentType("application/json").body(later()).when().post("/threads/{t}/runs/wait", thread), "too_many_queued_runs");
        assertThat(runsOf(thread)).hasSize(2);
        // a strategy that does not queue answers by its own rule
        given().contentType("application/json").body(later("multitask_strategy", "reject")).when().post("/threads/{t}/runs", thread)
                .then().statusCode(409).body("code", equalTo("thread_busy"));
        cancel(thread, first);
        cancel(thread, second);
    }

    @Test
    void aReplicaHoldsAtMostItsLimitOfRuns() {
        List<String[]> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String t = Api.newThread("held");
            held.add(new String[]{t, Api.start(t, later())});
        }
        String other = Api.newThread("held");
        tooMany(given().contentType("application/json").body(later()).when().post("/threads/{t}/runs", other), "too_many_runs");
        tooMany(given().contentType("application/json").body(Api.run("hello")).when().post("/threads/{t}/runs/stream", other), "too_many_runs");
        tooMany(given().contentType("application/json").body(Api.run("hello")).when().post("/runs/wait"), "too_many_runs");
        assertThat(runsOf(other)).isEmpty();
        for (String[] h : held) {
            cancel(h[0], h[1]);
        }
        // room again once they ended
        String again = Api.start(other, later());
        cancel(other, again);
    }

    @Test
    void aReplicaKeepsAtMostItsLimitOfStreamsOpen() throws Exception {
        String thread = Api.newThread("streams");
        try (SseClient a = SseClient.get("/threads/" + thread + "/stream"); SseClient b = SseClient.get("/threads/" + thread + "/stream")) {
            assertThat(a.status()).isEqualTo(200);
            assertThat(b.status()).isEqualTo(200);
            tooMany(given().when().get("/threads/{t}/stream", thread), "too_many_streams");
            tooMany(given().when().get("/threads/{t}/runs/{r}/stream", thread, "nope"), "too_many_streams");
            // the thread protocol's event stream counts against the same limit
            Response protocol = given().contentType("application/json").body("{\"channels\":[\"lifecycle\"]}")
                    .when().post("/threads/{t}/stream/events", thread);
            assertThat(protocol.statusCode()).isEqualTo(429);
            assertThat(protocol.header("Retry-After")).isEqualTo("7");
            assertThat(Api.tree(protocol.asString()).path("error").asText()).isEqualTo("too_many_streams");
            // and a WebSocket of the thread protocol is closed with 4429 (the SDK reconnects after it)
            JsonNode socket = NodeClient.run("thread-protocol-ws.mjs", 60, "http://localhost:" + port, "full");
            assertThat(socket.path("reason").asText()).startsWith("too_many_streams");
            // refused before the run is created
            tooMany(given().contentType("application/json").body(Api.run("hello")).when().post("/threads/{t}/runs/stream", thread), "too_many_streams");
            assertThat(runsOf(thread)).isEmpty();
            // a chat completion answered whole waits as a stream does: refused too, in OpenAI's shape, creating nothing
            Response whole = given().contentType("application/json").header("X-Conduit-Thread", thread)
                    .body(Map.of("model", "agent", "messages", List.of(Map.of("role", "user", "content", "hello"))))
                    .when().post("/v1/chat/completions");
            assertThat(whole.statusCode()).isEqualTo(429);
            assertThat(Api.tree(whole.asString()).path("error").path("code").asText()).isEqualTo("too_many_streams");
            assertThat(runsOf(thread)).isEmpty();
        }
    }

    /** Sends every body to its thread's {@code /runs} at once (no request waits for another's answer). */
    private List<HttpResponse<String>> together(List<String> threads) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String body = io.conduit.kernel.JsonCodec.MAPPER.writeValueAsString(later());
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (String t : threads) {
            sent.add(http.sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/threads/" + t + "/runs"))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        List<HttpResponse<String>> answers = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> f : sent) {
            answers.add(f.get());
        }
        return answers;
    }

    /** The accepted runs among the answers; every other answer must be a 429 with one of {@code codes}. */
    private static List<String> acceptedOrRefused(List<HttpResponse<String>> answers, String... codes) {
        List<String> accepted = new ArrayList<>();
        for (HttpResponse<String> a : answers) {
            if (a.statusCode() == 200) {
                accepted.add(Api.tree(a.body()).get("run_id").asText());
            } else {
                assertThat(a.statusCode()).as(a.body()).isEqualTo(429);
                assertThat(Api.tree(a.body()).get("code").asText()).isIn((Object[]) codes);
            }
        }
        return accepted;
    }

    @Test
    void runsRequestedTogetherOnManyThreadsPassNoReplicaLimit() throws Exception {
        List<String> threads = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            threads.add(Api.newThread("burst"));
        }
        List<String> accepted = acceptedOrRefused(together(threads), "too_many_runs");
        // the limits are reserved, not read: a burst arriving between one request's check and its write cannot pass them
        assertThat(accepted).isNotEmpty().hasSizeLessThanOrEqualTo(3);
        long stored = threads.stream().mapToLong(t -> runsOf(t).size()).sum();
        assertThat(stored).isEqualTo(accepted.size());
        for (String t : threads) {
            runsOf(t).forEach(r -> cancel(t, r.get("run_id").asText()));
        }
    }

    @Test
    void runsRequestedTogetherOnOneThreadQueueNoMoreThanItsLimit() throws Exception {
        String thread = Api.newThread("burst-queue");
        List<String> accepted = acceptedOrRefused(together(java.util.Collections.nCopies(10, thread)), "too_many_queued_runs", "too_many_runs");
        assertThat(accepted).isNotEmpty().hasSizeLessThanOrEqualTo(2);
        assertThat(runsOf(thread)).hasSize(accepted.size());
        accepted.forEach(r -> cancel(thread, r));
    }

    private static List<JsonNode> runsOf(String thread) {
        List<JsonNode> out = new ArrayList<>();
        Api.tree(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString()).forEach(out::add);
        return out;
    }
}
