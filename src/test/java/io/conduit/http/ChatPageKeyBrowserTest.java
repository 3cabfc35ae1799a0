package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.nio.file.Path;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The chat page with API keys on, in headless Chromium (src/test/js/chat-page-key.mjs): it asks for a key, sends it,
 * streams a chat over a WebSocket opened with a ticket. Skipped, saying why, where Chromium cannot run.
 */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class ChatPageKeyBrowserTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void thePageAsksForAKeyAndChatsWithIt() throws Exception {
        String owner = "page-" + UUID.randomUUID();
        JsonNode r = NodeClient.run("chat-page-key.mjs", 180, "http://localhost:" + port, ApiKeyAuth.createKey(owner, false), owner,
                Path.of("target", "chat-page").toString());
        assumeFalse(r.has("skipped"), () -> r.get("skipped").asText());
        assertThat(r.get("checks").asInt()).isGreaterThanOrEqualTo(14);
    }
}
