package io.conduit.a2a;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.api.PausingModel;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

/**
 * {@code tasks/cancel} of a streamed task whose model has said its first token and pauses (ten minutes) before the
 * next, sent with {@code @a2a-js/sdk}'s client as soon as that token came (src/test/js/a2a-client.mjs, scenario
 * {@code cancel}): the stream ends with a {@code canceled} status update without waiting for the next token, the
 * task reads back {@code canceled} and cannot be cancelled again, and its run is {@code interrupted} on the Agent
 * Server API.
 */
@QuarkusTest
@TestProfile(PausingModel.class)
class A2aCancelTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void aTaskCancelledAtItsFirstTokenEndsCanceledWithoutWaitingForTheNext() throws Exception {
        // a guard against a hang, not a timing assertion: the model's next token is ten minutes away
        JsonNode r = NodeClient.run("a2a-client.mjs", 100, "http://localhost:" + port, "agent", "cancel");

        JsonNode cancelled = r.get("cancelled");
        assertThat(cancelled.get("state").asText()).as("tasks/cancel's answer").isEqualTo("canceled");
        assertThat(cancelled.get("timestamp").asLong()).as("its status's time: when it was canceled (ms), not the record's last change")
                .isGreaterThanOrEqualTo(cancelled.get("sentAt").asLong());

        List<String> kinds = new ArrayList<>();
        r.get("events").forEach(e -> kinds.add(e.get("kind").asText() + (e.hasNonNull("state") ? ":" + e.get("state").asText() : "")));
        assertThat(kinds.get(0)).isEqualTo("task:submitted");
        assertThat(kinds).contains("artifactUpdate");
        // the SDK's v0.3 compatibility drops the wire's final flag: the stream ending right after this event shows it
        assertThat(kinds.get(kinds.size() - 1)).as("the stream's last event").isEqualTo("statusUpdate:canceled");

        assertThat(r.get("got").get("state").asText()).as("tasks/get after the stream").isEqualTo("canceled");
        assertThat(r.get("again").get("message").asText()).as("a second cancel").containsIgnoringCase("cannot be canceled");

        String run = cancelled.get("id").asText();
        String thread = cancelled.get("contextId").asText();
        given().when().get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200)
                .body("status", Matchers.equalTo("interrupted"));
        given().when().get("/threads/{t}", thread).then().statusCode(200)
                .body("status", Matchers.not(Matchers.equalTo("busy")));
    }
}
