package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Threads made through the API, not the chat page, are titled by their first human message (metadata.title, what the
 * page lists them by), judged by the LangGraph SDK in both lines (src/test/js/thread-titles-sdk.mjs): the title on
 * one line and cut short, a client's own title never replaced, no title without a human message, and the search's
 * values.messages[0] that agent-chat-ui names its history by.
 */
@QuarkusTest
class ThreadTitlesTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void threadsMadeThroughTheSdkAreTitledByTheirFirstMessage() throws Exception {
        assertThat(NodeClient.run("thread-titles-sdk.mjs", 90, "http://localhost:" + port).path("checks").asInt()).isGreaterThan(10);
        assertThat(NodeClient.run("thread-titles-sdk.mjs", 90, "http://localhost:" + port, "langgraph-sdk-2").path("checks").asInt())
                .isGreaterThan(10);
    }
}
