package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The service judged by the official LangGraph SDK from npm, in both lines that are out there (1.15.0, and 2.0.0 under
 * the alias {@code langgraph-sdk-2}): src/test/js/langgraph-sdk-client.mjs lists assistants, creates threads, streams
 * the demo turn (tokens, tool calls whose arguments arrive in chunks, tool results), answers an interrupt with a
 * command, reads state and history, forks from an older checkpoint, updates the state as a node, joins a run again
 * after a deliberate disconnect with Last-Event-ID (every event exactly once, against the replay from -1), checks the
 * same run's astream_events, stops at a breakpoint and goes on with a background run, and lets the SDK reconnect by
 * itself (to the stream's Location, with Last-Event-ID) when a proxy cuts the connection mid-frame. Any failed check
 * exits non-zero with "FAILED [step] what". {@code .ci/run} installs the clients.
 */
@QuarkusTest
@TestProfile(LangGraphSdkClientTest.ClarifyAfterOneRetry.class)
class LangGraphSdkClientTest {

    /**
     * Past one re-plan the verifier asks the user (a real interrupt): "what do you know about my X" re-plans once, then
     * asks; "plan my week" still re-plans once and answers. The simulator paces its chunks a little, so that the
     * deliberate disconnect usually finds the run still going and the join follows it live; the checks hold either way.
     */
    public static class ClarifyAfterOneRetry implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1",
                    "conduit.simulator.inter-token-delay", "5ms");
        }
    }

    private static final File CLIENTS = new File("src/test/js");

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void sdk1() throws Exception {
        passes("@langchain/langgraph-sdk", "1.15.0");
    }

    @Test
    void sdk2() throws Exception {
        passes("langgraph-sdk-2", "2.0.0");
    }

    private void passes(String pkg, String version) throws Exception {
        File manifest = new File(CLIENTS, "node_modules/" + pkg + "/package.json");
        if (!manifest.isFile()) {
            fail("The LangGraph SDK (" + pkg + ") is not installed: run `npm install --prefix src/test/js` (CI runs `npm ci`) and test again.");
        }
        assertThat(new ObjectMapper().readTree(manifest).get("version").asText()).as("installed version of " + pkg).isEqualTo(version);
        JsonNode r = io.conduit.NodeClient.run("langgraph-sdk-client.mjs", 120, "http://localhost:" + port, pkg);
        assertThat(r.get("sdk").asText()).isEqualTo(pkg);
        assertThat(r.get("checks").asInt()).as("checks the client made").isGreaterThan(500);
        assertThat(r.get("tokens").asInt()).as("tokens of the answer").isGreaterThan(10);
        assertThat(r.get("events").asInt()).as("astream_events of the run").isGreaterThan(50);
        System.out.println("langgraph-sdk-client " + version + ": " + r); // how the join found the run: running or ended
    }
}
