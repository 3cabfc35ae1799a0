package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A replica that drains ends the waits for a run's end it holds ({@code runs/wait}, {@code join}) instead of leaving
 * them to hang until the process stops (their runs are handed back and end elsewhere, where it cannot see them):
 * {@code runs/wait}, whose 200 is sent already, with {@code __error__ server_shutting_down}; {@code join} with 503 and
 * {@code Retry-After}, so that the client asks again, of another replica; a chat completion answered whole with OpenAI's
 * error shape, 503 {@code server_shutting_down}. The drain is the replica's own
 * ({@link StreamPermits#shutDown}), in an application of this class alone (a drained one refuses every later wait).
 */
@QuarkusTest
@TestProfile(RunWaitsTest.Paced.class)
class RunWaitsTest {

    /** The paced simulator (runs of {@link Api#SLOW} last far longer than the test), in an application of its own. */
    public static class Paced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.inter-token-delay", "10ms", "conduit.limits.max-streams", "1000");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Inject
    StreamPermits permits;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aDrainEndsTheWaitsForARunsEndWithServerShuttingDown() throws Exception {
        String waited = Api.newThread("wait-drain");
        CompletableFuture<HttpResponse<String>> wait = http.sendAsync(HttpRequest.newBuilder(url("/threads/" + waited + "/runs/wait"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Api.json(Api.run(Api.SLOW)))).build(),
                HttpResponse.BodyHandlers.ofString());
        String joined = Api.newThread("join-drain");
        String run = Api.start(joined, Api.run(Api.SLOW));
        CompletableFuture<HttpResponse<String>> join = http.sendAsync(HttpRequest.newBuilder(url("/threads/" + joined + "/runs/" + run + "/join")).build(),
                HttpResponse.BodyHandlers.ofString());
        // a chat completion answered whole waits for its run's end as well
        String conversation = java.util.UUID.randomUUID().toString();
        CompletableFuture<HttpResponse<String>> completion = http.sendAsync(HttpRequest.newBuilder(url("/v1/chat/completions"))
                .header("content-type", "application/json").header("X-Conduit-Thread", conversation).POST(HttpRequest.BodyPublishers.ofString(Api.json(Map.of("model", "agent",
                        "messages", java.util.List.of(Map.of("role", "user", "content", Api.SLOW)))))).build(), HttpResponse.BodyHandlers.ofString());
        long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // against a hang, not a timing check
        while (permits.open(StreamTransport.RUN_WAIT) < 3) { // all three are waiting on their runs
            assertThat(System.nanoTime()).as("the three waits counted as open").isLessThan(bound);
            assertThat(wait).isNotDone();
            assertThat(join).isNotDone();
            assertThat(completion).isNotDone();
            Thread.onSpinWait();
        }

        permits.shutDown();

        HttpResponse<String> waitAnswer = wait.get(60, TimeUnit.SECONDS); // a bound against a hang, not a timing check
        assertThat(waitAnswer.statusCode()).isEqualTo(200);
        JsonNode error = JsonCodec.MAPPER.readTree(waitAnswer.body()).path("__error__");
        assertThat(error.path("error").asText()).isEqualTo("server_shutting_down");
        assertThat(error.path("message").asText()).contains("reconnect");
        assertShuttingDown(join.get(60, TimeUnit.SECONDS));
        HttpResponse<String> completed = completion.get(60, TimeUnit.SECONDS);
        assertThat(completed.statusCode()).isEqualTo(503);
        assertThat(completed.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(JsonCodec.MAPPER.readTree(completed.body()).path("error").path("code").asText()).isEqualTo("server_shutting_down");
        // its run is rolled back, so that the SDK's own retry of a 503 runs the turn once: no run, no message kept
        while (!runsOf(conversation).isEmpty()) {
            assertThat(System.nanoTime()).as("the completion's run rolled back: " + runsOf(conversation)).isLessThan(bound);
            Thread.onSpinWait();
        }
        assertThat(JsonCodec.MAPPER.readTree(http.send(HttpRequest.newBuilder(url("/threads/" + conversation)).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("values").path("messages")).isEmpty();
        // a wait that comes during the drain ends at once, and nothing stays counted
        assertShuttingDown(http.send(HttpRequest.newBuilder(url("/threads/" + joined + "/runs/" + run + "/join")).build(),
                HttpResponse.BodyHandlers.ofString()));
        assertThat(permits.open(StreamTransport.RUN_WAIT)).isZero();
    }

    private static void assertShuttingDown(HttpResponse<String> r) throws Exception {
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(JsonCodec.MAPPER.readTree(r.body()).path("code").asText()).isEqualTo("server_shutting_down");
    }

    private JsonNode runsOf(String thread) throws Exception {
        return JsonCodec.MAPPER.readTree(http.send(HttpRequest.newBuilder(url("/threads/" + thread + "/runs")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private URI url(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
