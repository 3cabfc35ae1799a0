package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * useStream (the React hook of {@code @langchain/langgraph-sdk} 1.15) in headless Chromium, on a test-only page
 * (src/test/js/use-stream/, bundled at test time into target/use-stream/ and served from another origin by
 * src/test/js/use-stream-reload.mjs): the agent's clarifying question shows live, and again after a reload with the
 * same interrupt id rather than as a breakpoint, and answering it (a Command resume by that id) ends the run.
 * Skipped, saying why, where Chromium cannot run.
 */
@QuarkusTest
@TestProfile(UseStreamReloadBrowserTest.CorsForThePage.class)
class UseStreamReloadBrowserTest {

    /** The page is served from http://127.0.0.1 on a port chosen at run time, so CORS allows any port there. */
    public static class CorsForThePage implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.cors.enabled", "true", "quarkus.http.cors.origins", "/http://127\\.0\\.0\\.1:[0-9]+/");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theInterruptIsStillTheQuestionAfterAReloadAndAnsweringItEndsTheRun() throws Exception {
        Path artifacts = Path.of("target", "use-stream");
        JsonNode r = NodeClient.run("use-stream-reload.mjs", 240, "http://localhost:" + port, artifacts.toString());
        System.out.println("use-stream-reload: " + r);
        assumeFalse(r.has("skipped"), () -> r.get("skipped").asText());
        assertThat(r.get("checks").asInt()).isGreaterThanOrEqualTo(14);
        assertThat(r.get("interruptId").asText()).isNotBlank();
        assertThat(Files.size(artifacts.resolve("after-reload.png"))).isPositive();
    }
}
