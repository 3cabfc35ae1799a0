package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.blueprints.tutor.TutorAndDemoScript;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The chat page's time travel in headless Chromium (src/test/js/chat-page-branches.mjs): {@code /} opens a new
 * chat, the thinking indicator, copy, the history panel (a step opened and forked from), editing a past message and
 * regenerating an answer, each checked against the thread's state. Screenshots in target/chat-page/. Skipped,
 * saying why, where Chromium cannot run.
 */
@QuarkusTest
@TestProfile(ChatPageBrowserTest.Paced.class)
@QuarkusTestResource(value = TutorAndDemoScript.class, restrictToAnnotatedClass = true)
class ChatPageBranchesBrowserTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void thePageForksEditsAndRegeneratesFromTheThreadsCheckpoints() throws Exception {
        Path artifacts = Path.of("target", "chat-page");
        JsonNode r = NodeClient.run("chat-page-branches.mjs", 300, "http://localhost:" + port, artifacts.toString());
        System.out.println("chat-page-branches: " + r);
        assumeFalse(r.has("skipped"), () -> r.get("skipped").asText());
        assertThat(r.get("checks").asInt()).isGreaterThan(15);
        assertThat(Files.size(artifacts.resolve("chat-page-history.png"))).isPositive();
    }
}
