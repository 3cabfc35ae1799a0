package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/** The real LangGraph SDK with API keys on (src/test/js/langgraph-sdk-auth.mjs): its apiKey goes as x-api-key. */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class LangGraphSdkAuthTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theSdkWithAKeySeesItsOwnAndNoOneElses() throws Exception {
        String owner = "sdk-" + UUID.randomUUID();
        JsonNode summary = NodeClient.run("langgraph-sdk-auth.mjs", 120, "http://localhost:" + port,
                ApiKeyAuth.createKey(owner, false), owner, ApiKeyAuth.createKey("sdk-other-" + UUID.randomUUID(), false));
        assertThat(summary.path("ok").asBoolean()).isTrue();
        assertThat(summary.path("checks").asInt()).isGreaterThanOrEqualTo(15);
    }
}
