package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * AG-UI judged by its own client, {@code @ag-ui/client} 1.0.0's {@code HttpAgent} (src/test/js/ag-ui-client.mjs),
 * whose {@code runAgent} checks every event against the protocol's schemas and verifies their order; the script also
 * fails on any warning the client logs. A turn with a server tool (argument deltas, its result, a step per node, a
 * second turn that appends only the new message); a front-end tool the planner calls, the run ending on it and the
 * next run continuing from the client's result; an interrupt ending the run and a resume answering it.
 */
@QuarkusTest
@TestProfile(AgUiClientTest.Scripted.class)
class AgUiClientTest {

    /** The simulator's script with a front-end tool's rule; an agent that asks the user after one re-plan. */
    public static class Scripted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.script", "src/test/resources/agui/script.json",
                    "conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private JsonNode client(String scenario) throws Exception {
        JsonNode r = NodeClient.run("ag-ui-client.mjs", 120, "http://localhost:" + port, scenario);
        System.out.println("ag-ui-client " + scenario + ": " + r);
        return r;
    }

    @Test
    void aTurnWithAServerToolStreamsTheCallItsArgumentDeltasAndItsResult() throws Exception {
        JsonNode r = client("server-tool");
        assertThat(r.get("argDeltas").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(r.get("checks").asInt()).isGreaterThan(20);
    }

    @Test
    void aFrontEndToolIsCalledAndTheNextRunContinuesFromTheClientsResult() throws Exception {
        assertThat(client("frontend-tool").get("checks").asInt()).isGreaterThan(15);
    }

    @Test
    void anInterruptEndsTheRunAndTheNextRunResumesIt() throws Exception {
        assertThat(client("interrupt").get("checks").asInt()).isGreaterThan(15);
    }
}
