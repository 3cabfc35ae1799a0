package io.conduit.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.api.PausingModel;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code tasks/resubscribe} with {@code @a2a-js/sdk}'s client (src/test/js/a2a-client.mjs, scenario
 * {@code resubscribe}): a streamed task whose client left its stream at the first token (the model then pauses for ten
 * minutes) is read again from its start, the task first and its first token once, and its cancellation, sent after
 * that token came on the new stream, ends the new stream live. Resubscribing to the task once it ended, and to a task
 * that does not exist, is refused with an error. The profile of the cancel tests, so Quarkus starts once for them.
 */
@QuarkusTest
@TestProfile(PausingModel.class)
class A2aResubscribeTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void aTaskInFlightIsReadAgainFromItsStartAndFollowedLiveToItsEnd() throws Exception {
        // a guard against a hang, not a timing assertion: the model's next token is ten minutes away
        JsonNode r = NodeClient.run("a2a-client.mjs", 100, "http://localhost:" + port, "agent", "resubscribe");

        String task = r.get("taskId").asText();
        List<String> kinds = new ArrayList<>();
        r.get("events").forEach(e -> {
            kinds.add(e.get("kind").asText() + (e.hasNonNull("state") ? ":" + e.get("state").asText() : ""));
            assertThat(e.get("taskId").asText()).isEqualTo(task);
        });
        assertThat(kinds).as("the task from its start, then its end").containsExactly(
                "task:submitted", "statusUpdate:working", "artifactUpdate", "statusUpdate:canceled");
        assertThat(r.get("events").get(2).get("append").asBoolean()).as("the first chunk replaces, not appends").isFalse();
        assertThat(r.get("text").asText()).as("the artifact rebuilt from the new stream").isEqualTo(r.get("firstText").asText())
                .isNotEmpty();

        assertThat(r.get("ended").get("message").asText()).as("resubscribing to the ended task")
                .contains("terminal state (canceled)");
        assertThat(r.get("unknown").get("message").asText()).as("resubscribing to an unknown task").contains("Task not found");
    }
}
