package io.conduit.stream;

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
 * The thread protocol judged by the LangGraph SDK's own {@code ThreadStream} (@langchain/langgraph-sdk 1.15.0,
 * {@code client.threads.stream}) over WebSocket and SSE (src/test/js/thread-protocol-sdk.mjs): a turn with streamed
 * text, tool-call argument deltas and the tool's result; an interrupt answered with {@code input.respond}; a socket
 * killed mid-answer while the model is paced (a socket terminated; an SSE response cut), after which the SDK reconnects by itself and the streamed text equals
 * the state's, every token once, and a second run is seen in full; two connections on one thread see the same
 * events. Each check is on content and order, never on time.
 */
@QuarkusTest
@TestProfile(ThreadProtocolSdkTest.Paced.class)
class ThreadProtocolSdkTest {

    /** A paced model (so a socket can die mid-answer) and an agent that asks the user after one re-plan. */
    public static class Paced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1",
                    "conduit.simulator.inter-token-delay", "10ms");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private JsonNode sdk(String transport, String scenario) throws Exception {
        JsonNode r = NodeClient.run("thread-protocol-sdk.mjs", 120, "http://localhost:" + port, transport, scenario);
        System.out.println("thread-protocol-sdk " + transport + " " + scenario + ": " + r);
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"websocket", "sse"})
    void aTurnStreamsTextAndToolCallsWithArgumentDeltasAndResults(String transport) throws Exception {
        JsonNode r = sdk(transport, "turn");
        assertThat(r.get("toolDeltas").asInt()).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"websocket", "sse"})
    void anInterruptIsAnsweredWithInputRespond(String transport) throws Exception {
        assertThat(sdk(transport, "interrupt").get("checks").asInt()).isGreaterThan(5);
    }

    @ParameterizedTest
    @ValueSource(strings = {"websocket", "sse"})
    void aConnectionKilledMidAnswerReconnectsAndLosesNothingAndTheNextRunIsSeenInFull(String transport) throws Exception {
        JsonNode r = sdk(transport, "reconnect");
        assertThat(r.get("sockets").asInt()).isGreaterThanOrEqualTo(2);
    }

    @ParameterizedTest
    @ValueSource(strings = {"websocket", "sse"})
    void twoConnectionsOnOneThreadSeeIdenticalEvents(String transport) throws Exception {
        assertThat(sdk(transport, "two").get("events").asInt()).isGreaterThan(20);
    }
}
