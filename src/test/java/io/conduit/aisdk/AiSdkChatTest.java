package io.conduit.aisdk;

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
 * {@code /ai-sdk/chat} judged by the Vercel AI SDK itself, ai 7 and ai 6 (src/test/js/ai-sdk-chat.mjs): a turn with
 * server tool calls read through {@code DefaultChatTransport} and {@code readUIMessageStream}, every chunk valid against
 * both versions' {@code uiMessageChunkSchema}, and a second turn on the same chat; a stream resumed mid-run with
 * {@code GET …/stream} that gives the whole message; an interrupt as a {@code data-interrupt} part, answered by the
 * next message; bad requests refused before anything is written. Checks are on content and order, never on time.
 */
@QuarkusTest
@TestProfile(AiSdkChatTest.Paced.class)
class AiSdkChatTest {

    /** A paced model that streams reasoning (so a stream can be dropped mid-run) and an agent that asks the user after one re-plan. */
    public static class Paced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1",
                    "conduit.simulator.inter-token-delay", "10ms", "conduit.simulator.reasoning", "true");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private JsonNode sdk(String version, String scenario) throws Exception {
        JsonNode r = NodeClient.run("ai-sdk-chat.mjs", 120, "http://localhost:" + port, version, scenario);
        System.out.println("ai-sdk-chat ai " + version + " " + scenario + ": " + r);
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "6"})
    void aTurnWithServerToolsReadsAsOneValidUiMessageAndTheNextTurnAppendsOnlyTheNewMessage(String version) throws Exception {
        assertThat(sdk(version, "turn").get("chunks").asInt()).isGreaterThan(20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "6"})
    void aStreamDroppedMidRunIsResumedWholeFromTheStart(String version) throws Exception {
        assertThat(sdk(version, "resume").get("deltas").asInt()).isGreaterThan(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "6"})
    void anInterruptIsADataPartAndTheNextMessageAnswersIt(String version) throws Exception {
        assertThat(sdk(version, "interrupt").get("checks").asInt()).isGreaterThan(10);
    }

    @ParameterizedTest
    @ValueSource(strings = {"7", "6"})
    void badRequestsAreRefusedWithJsonErrorsAndCreateNothing(String version) throws Exception {
        assertThat(sdk(version, "errors").get("cases").asInt()).isEqualTo(12);
    }
}
