package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * AG-UI judged by its own client, {@code @ag-ui/client} 1.0.0 (src/test/js/ag-ui-client.mjs): its {@code HttpAgent}
 * over SSE, and over the WebSocket (subprotocol {@code ag-ui}) an {@code AbstractAgent} reading one socket for every
 * run; {@code runAgent} checks every event against the protocol's schemas and verifies their order, and the script
 * fails on any warning the client logs. A turn with a server tool (argument deltas, its result, a step per node, a
 * second turn that appends only the new message); a front-end tool the planner calls, the run ending on it and the
 * next run continuing from the client's result; an interrupt ending the run and a resume answering it; a run the
 * client aborts mid-answer, which the service stops.
 */
@QuarkusTest
@TestProfile(AgUiClientTest.Scripted.class)
class AgUiClientTest {

    /**
     * The simulator's script with a front-end tool's rule, streaming reasoning, paced (so a run can be stopped
     * mid-answer); an agent that asks the user after one re-plan.
     */
    public static class Scripted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.script", "src/test/resources/agui/script.json",
                    "conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1", "conduit.simulator.reasoning", "true",
                    "conduit.simulator.inter-token-delay", "10ms");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private JsonNode client(String scenario, String transport) throws Exception {
        JsonNode r = NodeClient.run("ag-ui-client.mjs", 120, "http://localhost:" + port, scenario, transport);
        System.out.println("ag-ui-client " + scenario + " " + transport + ": " + r);
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "websocket"})
    void aTurnWithAServerToolStreamsTheCallItsArgumentDeltasAndItsResult(String transport) throws Exception {
        JsonNode r = client("server-tool", transport);
        assertThat(r.get("argDeltas").asInt()).isGreaterThanOrEqualTo(2);
        assertThat(r.get("checks").asInt()).isGreaterThan(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "websocket"})
    void aFrontEndToolIsCalledAndTheNextRunContinuesFromTheClientsResult(String transport) throws Exception {
        assertThat(client("frontend-tool", transport).get("checks").asInt()).isGreaterThan(15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "websocket"})
    void anInterruptEndsTheRunAndTheNextRunResumesIt(String transport) throws Exception {
        assertThat(client("interrupt", transport).get("checks").asInt()).isGreaterThan(15);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http", "websocket"})
    void aRunTheClientAbortsIsStopped(String transport) throws Exception {
        assertThat(client("abort", transport).get("checks").asInt()).isGreaterThanOrEqualTo(3);
    }
}
