package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Iterator;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol over HTTP with a plain Java client: every command is answered inline with 200 JSON, errors included;
 * the event stream filters, replays from {@code since}, stays open between runs and keeps sending heartbeats after a
 * run's end; a forbidden thread is 403.
 */
@QuarkusTest
@TestProfile(ThreadProtocolHttpTest.FastHeartbeat.class)
class ThreadProtocolHttpTest {

    public static class FastHeartbeat implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.stream.heartbeat", "50ms");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode command(String thread, String body) throws Exception {
        HttpResponse<String> r = post("/threads/" + thread + "/commands", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type").orElse("")).contains("application/json");
        return JsonCodec.MAPPER.readTree(r.body());
    }

    @Test
    void everyCommandIsAnsweredInlineWith200() throws Exception {
        String t = UUID.randomUUID().toString();
        JsonNode a = command(t, "not json");
        assertThat(a.get("type").asText()).isEqualTo("error");
        assertThat(a.get("id").isNull()).isTrue();
        assertThat(a.get("error").asText()).isEqualTo("invalid_argument");
        assertThat(command(t, "{\"method\":\"state.get\"}").get("error").asText()).isEqualTo("invalid_argument");
        a = command(t, "{\"id\":7,\"method\":\"warp.drive\",\"params\":{}}");
        assertThat(a.get("id").asInt()).isEqualTo(7);
        assertThat(a.get("error").asText()).isEqualTo("unknown_command");
        assertThat(command(t, "{\"id\":1,\"method\":\"subscription.subscribe\",\"params\":{\"channels\":[\"values\"]}}").get("error").asText())
                .isEqualTo("not_supported");
        assertThat(command(t, "{\"id\":2,\"method\":\"run.start\",\"params\":{\"input\":{}}}").get("error").asText()).isEqualTo("invalid_argument");
        a = command(t, "{\"id\":3,\"method\":\"state.get\",\"params\":{\"namespace\":[]}}");
        assertThat(a.get("type").asText()).isEqualTo("success");
        assertThat(a.path("result").path("values").isEmpty()).isTrue();
        assertThat(a.path("meta").path("thread_id").asText()).isEqualTo(t);
        assertThat(command(t, "{\"id\":4,\"method\":\"state.get\",\"params\":{\"namespace\":[\"x:1\"]}}").get("error").asText()).isEqualTo("no_such_namespace");
    }

    @Test
    @Timeout(120) // a guard against a hang, not a timing assertion
    void theEventStreamStaysOpenBetweenRunsWithHeartbeatsAndForksAndCheckpointsWork() throws Exception {
        String t = UUID.randomUUID().toString();
        HttpResponse<Stream<String>> sse = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/threads/" + t + "/stream/events"))
                .header("content-type", "application/json").header("accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"channels\":[\"lifecycle\"],\"namespaces\":[[]],\"depth\":0}")).build(),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(sse.statusCode()).isEqualTo(200);
        assertThat(sse.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        Iterator<String> lines = sse.body().iterator();
        JsonNode started = command(t, "{\"id\":1,\"method\":\"run.start\",\"params\":{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}}}");
        assertThat(started.path("result").path("run_id").isTextual()).as(started.toString()).isTrue();
        String end = untilRootEnd(lines);
        assertThat(end).isEqualTo("completed");
        // after the run's end the stream stays open: heartbeats keep coming, then the next run's events
        int beats = 0;
        while (beats < 3 && lines.hasNext()) {
            if (lines.next().startsWith(":")) {
                beats++;
            }
        }
        assertThat(beats).isEqualTo(3);
        JsonNode checkpoints = command(t, "{\"id\":2,\"method\":\"state.listCheckpoints\",\"params\":{\"limit\":100}}");
        JsonNode list = checkpoints.path("result").path("checkpoints");
        assertThat(list.size()).as(checkpoints.toString()).isGreaterThan(2);
        String first = list.get(list.size() - 1).get("id").asText();
        JsonNode fork = command(t, "{\"id\":3,\"method\":\"state.fork\",\"params\":{\"checkpoint_id\":\"" + first + "\"}}");
        assertThat(fork.path("result").path("thread_id").asText()).as(fork.toString()).isEqualTo(t);
        assertThat(untilRootEnd(lines)).isEqualTo("completed");
        JsonNode tree = command(t, "{\"id\":4,\"method\":\"agent.getTree\",\"params\":{\"run_id\":\"" + fork.path("result").path("run_id").asText() + "\"}}");
        assertThat(tree.path("result").path("tree").path("status").asText()).as(tree.toString()).isEqualTo("completed");
        assertThat(tree.path("result").path("tree").path("children").size()).isGreaterThan(0);
        JsonNode state = command(t, "{\"id\":5,\"method\":\"state.get\",\"params\":{\"namespace\":[],\"keys\":[\"messages\"]}}");
        assertThat(state.path("result").path("values").fieldNames().next()).isEqualTo("messages");
        assertThat(state.path("result").path("checkpoint").path("id").isTextual()).isTrue();
    }

    @Test
    void aBadFilterIs400AndAForbiddenThreadIs403() throws Exception {
        String t = UUID.randomUUID().toString();
        HttpResponse<String> bad = post("/threads/" + t + "/stream/events", "{\"channels\":[]}");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(JsonCodec.MAPPER.readTree(bad.body()).get("error").asText()).isEqualTo("invalid_argument");
        HttpResponse<String> forbidden = post("/threads/forbidden-" + t + "/commands", "{\"id\":1,\"method\":\"state.get\"}");
        assertThat(forbidden.statusCode()).isEqualTo(403);
        assertThat(JsonCodec.MAPPER.readTree(forbidden.body()).get("error").asText()).isEqualTo("permission_denied");
    }

    /** Reads SSE lines until the root lifecycle's terminal event; returns its {@code event}. */
    private static String untilRootEnd(Iterator<String> lines) throws Exception {
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data: ")) {
                JsonNode e = JsonCodec.MAPPER.readTree(line.substring(6));
                String ev = e.path("params").path("data").path("event").asText();
                if (e.path("params").path("namespace").isEmpty() && !ev.equals("running")) {
                    return ev;
                }
            }
        }
        throw new AssertionError("the stream ended before the run did");
    }
}
