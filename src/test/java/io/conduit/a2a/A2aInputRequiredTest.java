package io.conduit.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * An interrupted run is an {@code input-required} task, its question the status message, and the next message on
 * the task (sent with {@code @a2a-js/sdk}'s client) answers it: the resumed run completes on the same context.
 * {@code tasks/resubscribe} meanwhile gets the task as it stands, and its stream ends.
 */
@QuarkusTest
@TestProfile(A2aInputRequiredTest.Asking.class)
class A2aInputRequiredTest {

    /** An agent that asks the user after one re-plan. */
    public static class Asking implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void anInterruptAsksForInputAndTheNextMessageOnTheTaskAnswersIt() throws Exception {
        JsonNode r = NodeClient.run("a2a-client.mjs", 120, "http://localhost:" + port, "agent", "interrupt");
        JsonNode asked = r.get("asked");
        assertThat(asked.get("state").asText()).isEqualTo("input-required");
        assertThat(asked.get("statusText").asText()).as("the question").isNotBlank();
        assertThat(r.get("resubscribed").toString()).as("tasks/resubscribe while it waits: the task as it stands, then the end")
                .isEqualTo("[{\"kind\":\"task\",\"state\":\"input-required\"}]");
        JsonNode events = r.get("events");
        assertThat(events.get(events.size() - 1).get("state").asText()).isEqualTo("completed");
        events.forEach(e -> assertThat(e.get("contextId").asText()).isEqualTo(asked.get("contextId").asText()));
        assertThat(r.get("got").get("state").asText()).as("the asking task, read back").isEqualTo("input-required");
    }
}
