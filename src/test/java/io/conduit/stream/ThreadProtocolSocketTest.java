package io.conduit.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket transport judged by a raw client (npm ws, src/test/js/thread-protocol-ws.mjs): bad frames get error
 * answers and the socket stays open; an oversized frame closes with 1009; a forbidden thread with 4403; a run
 * cancelled through the classic endpoint ends with the root lifecycle {@code interrupted}, the socket still open; a
 * client that stops answering pings is closed and its subscriptions dropped; overlapping subscriptions get one copy of
 * each event and a late one replays with the original ids; reject, input.inject and a fork through run.start. Short ping settings and a paced model.
 */
@QuarkusTest
@TestProfile(ThreadProtocolSocketTest.Settings.class)
class ThreadProtocolSocketTest {

    public static class Settings implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.stream.max-frame-bytes", "4096", "conduit.stream.ping-interval", "200ms",
                    "conduit.stream.pong-timeout", "1s", "conduit.simulator.inter-token-delay", "20ms");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Inject
    OpenSockets open;

    private JsonNode run(String scenario, String... more) throws Exception {
        String[] args = new String[2 + more.length];
        args[0] = "http://localhost:" + port;
        args[1] = scenario;
        System.arraycopy(more, 0, args, 2, more.length);
        return NodeClient.run("thread-protocol-ws.mjs", 60, args);
    }

    @Test
    void badFramesGetErrorAnswersAndTheSocketStaysOpen() throws Exception {
        assertThat(run("errors").get("checks").asInt()).isGreaterThan(10);
    }

    @Test
    void anOversizedFrameClosesWith1009() throws Exception {
        assertThat(run("oversized", "5000").get("reason").asText()).contains("4096");
    }

    @Test
    void aForbiddenThreadClosesWith4403() throws Exception {
        assertThat(run("forbidden").get("reason").asText()).contains("permission_denied");
    }

    @Test
    void cancelThroughTheClassicEndpointShowsRootInterrupted() throws Exception {
        assertThat(run("cancel").get("checks").asInt()).isGreaterThan(5);
    }

    @Test
    void overlappingSubscriptionsGetOneCopyAndALateOneReplaysWithOriginalIds() throws Exception {
        assertThat(run("overlap").get("events").asInt()).isGreaterThan(10);
    }

    @Test
    void runStartAndInputInjectFollowTheClassicRunsRules() throws Exception {
        assertThat(run("runs").get("runs").asInt()).isEqualTo(3);
    }

    @Test
    void aClientThatStopsAnsweringPingsIsClosedAndCleanedUp() throws Exception {
        run("halfopen");
        // the close the server sent is what the client waited for; by then the session was dropped
        assertThat(open.count()).isZero();
    }
}
