package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The small gaps that LangGraph's front ends trip on, judged by the official SDK in both lines (1.15.0, and 2.0.0
 * under the alias {@code langgraph-sdk-2}) and by fetch where the SDK has no call (src/test/js/langgraph-sdk-gaps.mjs):
 * {@code /info} and {@code /ok}; a search's threads with their values and paging headers; an interrupt on its task
 * (the tutor's quiz, raised in a subgraph) as useStream reads it after a reload, and answered by its id; a breakpoint in
 * no task's interrupts; the {@code messages} stream mode, live and replayed; a new thread seeded with updateState;
 * the headers CORS exposes; the OpenAPI document and its page.
 */
@QuarkusTest
@TestProfile(LangGraphSdkGapsTest.CorsOn.class)
class LangGraphSdkGapsTest {

    /** CORS on for one origin, as an operator serving agent-chat-ui from another host sets it. */
    public static class CorsOn implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.cors.enabled", "true", "quarkus.http.cors.origins", "http://ui.example.test",
                    "conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void sdk1() throws Exception {
        passes("@langchain/langgraph-sdk");
    }

    @Test
    void sdk2() throws Exception {
        passes("langgraph-sdk-2");
    }

    private void passes(String pkg) throws Exception {
        JsonNode r = io.conduit.NodeClient.run("langgraph-sdk-gaps.mjs", 120, "http://localhost:" + port, pkg);
        assertThat(r.get("sdk").asText()).isEqualTo(pkg);
        assertThat(r.get("checks").asInt()).as("checks the client made").isGreaterThan(60);
    }
}
