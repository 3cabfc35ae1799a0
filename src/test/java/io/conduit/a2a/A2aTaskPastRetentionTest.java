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
 * A task read back once the server keeps none of its run's events (the stream retention set to nothing, as any task
 * reaches after ten minutes): its state comes from the run's record, which says {@code interrupted} for a question
 * and for a cancel alike. The thread, still at the run's question, says it is {@code input-required}; before, such a
 * task read {@code canceled}, and {@code tasks/resubscribe} refused it as ended.
 */
@QuarkusTest
@TestProfile(A2aTaskPastRetentionTest.Forgetful.class)
class A2aTaskPastRetentionTest {

    /** An agent that asks the user after one re-plan; no run's events kept past its end. */
    public static class Forgetful implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.clarify-on-failure", "true", "conduit.agent.retry-budget", "1",
                    "conduit.runs.stream-retention", "0s");
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void aQuestionPastRetentionIsStillInputRequired() throws Exception {
        JsonNode r = NodeClient.run("a2a-client.mjs", 120, "http://localhost:" + port, "agent", "waiting");
        assertThat(r.get("asked").get("state").asText()).isEqualTo("input-required");
        assertThat(r.get("got").get("state").asText()).as("tasks/get, from the record and the thread").isEqualTo("input-required");
        assertThat(r.get("got").get("statusText").asText()).as("the question, as the live stream asked it")
                .isNotBlank().isEqualTo(r.get("asked").get("statusText").asText());
        assertThat(r.get("resubscribed").toString()).as("tasks/resubscribe: the task as it stands, then the end")
                .isEqualTo("[{\"kind\":\"task\",\"state\":\"input-required\"}]");
    }
}
