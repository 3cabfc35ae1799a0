package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.blueprints.tutor.TutorAndDemoScript;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The chat page in headless Chromium (Debian's {@code chromium}, driven by playwright-core from
 * src/test/js/chat-page.mjs): streamed text and tool cards across a dropped connection, safe Markdown, an interrupt
 * answered in its box, the tutor's quiz answered with a choice button, stop, a reload mid-answer, the thread list,
 * phone width, and no console error. Screenshots are kept in target/chat-page/. Skipped, saying why, where Chromium
 * cannot run.
 */
@QuarkusTest
@TestProfile(ChatPageBrowserTest.Paced.class)
@QuarkusTestResource(value = TutorAndDemoScript.class, restrictToAnnotatedClass = true)
class ChatPageBrowserTest {

    /** A paced model (so a turn can be stopped or reloaded mid-answer) and an agent that asks after one re-plan. */
    public static class Paced implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1",
                    "conduit.simulator.inter-token-delay", "20ms");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void thePageStreamsAnswersToolCardsInterruptsStopAndReloadWithoutConsoleErrors() throws Exception {
        Path artifacts = Path.of("target", "chat-page");
        JsonNode r = NodeClient.run("chat-page.mjs", 300, "http://localhost:" + port, artifacts.toString());
        System.out.println("chat-page: " + r);
        assumeFalse(r.has("skipped"), () -> r.get("skipped").asText());
        assertThat(r.get("checks").asInt()).isGreaterThan(30);
        assertThat(Files.size(artifacts.resolve("chat-page.png"))).isPositive();
    }
}
