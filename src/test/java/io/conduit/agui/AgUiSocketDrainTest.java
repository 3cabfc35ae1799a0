package io.conduit.agui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.delivery.StreamPermits;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * AG-UI over a WebSocket when the replica drains ({@link StreamPermits#shutDown}, in an application of this class
 * alone): the events already queued go out, then RUN_ERROR {@code server_shutting_down} and a close with 1012 "service
 * restart"; the run, handed back rather than stopped, is not cancelled by that close although its client asked for
 * cancel on disconnect (an AG-UI run does). A socket whose run has ended only closes, with no second end.
 */
@QuarkusTest
@TestProfile(AgUiSocketDrainTest.Paced.class)
class AgUiSocketDrainTest {

    /** Tokens paced at 10 ms: a turn of 300 words streams for some 3 s. */
    public static class Paced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.inter-token-delay", "10ms", "conduit.limits.max-streams", "1001");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Inject
    StreamPermits permits;

    private WebSocket open(WebSocketFrames frames) throws Exception {
        return HttpClient.newHttpClient().newWebSocketBuilder().subprotocols(AgUiSocket.SUBPROTOCOL)
                .buildAsync(URI.create("ws://localhost:" + port + "/ag-ui"), frames).get(30, TimeUnit.SECONDS);
    }

    private static void say(WebSocket ws, String thread, String text) {
        ws.sendText("{\"threadId\":\"" + thread + "\",\"runId\":\"r1\",\"state\":{},\"messages\":[{\"id\":\"u-" + UUID.randomUUID()
                + "\",\"role\":\"user\",\"content\":\"" + text + "\"}],\"tools\":[],\"context\":[],\"forwardedProps\":{}}", true).join();
    }

    @Test
    void aDrainEndsTheSocketWithServerShuttingDownAndLeavesItsRunGoing() throws Exception {
        // a socket whose run has ended: the drain only closes it (an AG-UI run has one end, RUN_FINISHED here)
        WebSocketFrames finished = new WebSocketFrames();
        say(open(finished), "agui-done-" + UUID.randomUUID(), "hello");
        while (!finished.next().path("type").asText().equals("RUN_FINISHED")) {
            // until the short turn ends
        }
        String thread = "agui-drain-" + UUID.randomUUID();
        WebSocketFrames frames = new WebSocketFrames();
        say(open(frames), thread, "tick ".repeat(300).trim());
        List<JsonNode> before = new ArrayList<>();
        while (before.isEmpty() || !before.getLast().path("type").asText().equals("TEXT_MESSAGE_CONTENT")) {
            before.add(frames.next()); // until the model streams
        }

        permits.shutDown();

        assertThat(finished.closed.get(60, TimeUnit.SECONDS)).isEqualTo(1012); // a bound against a hang, not a timing check
        assertThat(finished.texts).isEmpty();

        assertThat(frames.closed.get(60, TimeUnit.SECONDS)).isEqualTo(1012); // a bound against a hang, not a timing check
        List<JsonNode> after = new ArrayList<>();
        for (String t : frames.texts) {
            after.add(JsonCodec.MAPPER.readTree(t));
        }
        assertThat(after).isNotEmpty();
        JsonNode last = after.getLast();
        assertThat(last.path("type").asText()).isEqualTo("RUN_ERROR");
        assertThat(last.path("code").asText()).isEqualTo("server_shutting_down");
        // the close did not cancel the run: it ends as it would have (here, where nothing takes it over)
        String run = given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().path("[0].run_id");
        String status;
        long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(120); // against a hang, not a timing check
        do {
            status = given().when().get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200).extract().path("status");
            assertThat(System.nanoTime()).as("the run ends").isLessThan(bound);
        } while (status.equals("pending") || status.equals("running"));
        assertThat(status).isEqualTo("success");
    }
}
