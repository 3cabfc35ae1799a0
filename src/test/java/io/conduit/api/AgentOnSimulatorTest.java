package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import io.conduit.graph.CompiledGraph;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The whole assistant, as a client sees it: one request to the dev endpoint, read as server-sent events. Behind it,
 * the real parts: LangChain4j over HTTP to the built-in simulator, the tool executor, the Postgres checkpointer.
 * The demo script plans with two tools at once; recall finds nothing, so the verifier re-plans once; the answer
 * streams token by token; a tiny context budget makes the summarizer fold the turn.
 */
@QuarkusTest
@TestProfile(AgentOnSimulatorTest.TinyBudget.class)
class AgentOnSimulatorTest {

    public static class TinyBudget implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.agent.context-token-budget", "40", "conduit.agent.keep-recent-turns", "0");
        }
    }

    @Inject
    CompiledGraph agent;

    @Test
    void oneTurnCallsToolsInParallelReplansStreamsSummarizesAndCheckpointsEveryStep() throws Exception {
        String thread = "sim-" + UUID.randomUUID();
        String body = given().contentType("application/json").body(Map.of("message", "Please plan my week", "user_id", "ada"))
                .when().post("/dev/threads/{t}/runs", thread)
                .then().statusCode(200).contentType(org.hamcrest.Matchers.containsString("text/event-stream"))
                .extract().asString();
        List<JsonNode> events = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.startsWith("data:")) {
                events.add(JsonCodec.MAPPER.readTree(line.substring(5).trim()));
            }
        }
        assertThat(events.get(events.size() - 1).get("event").asText()).isEqualTo("finished");

        List<JsonNode> toolTasks = events.stream().filter(e -> e.get("event").asText().equals("task_started")
                && "tool_executor".equals(e.path("node").asText())).toList();
        assertThat(toolTasks).hasSize(3);
        assertThat(toolTasks.get(0).get("step").asInt()).isEqualTo(toolTasks.get(1).get("step").asInt());
        assertThat(toolTasks.get(2).get("step").asInt()).isGreaterThan(toolTasks.get(0).get("step").asInt());

        List<JsonNode> retries = events.stream().filter(e -> e.get("event").asText().equals("custom")
                && e.get("name").asText().equals("planning_retry")).toList();
        assertThat(retries).hasSize(1);
        assertThat(retries.get(0).get("payload").toString()).contains("recall returned nothing");

        List<JsonNode> tokens = events.stream().filter(e -> e.get("event").asText().equals("token")).toList();
        assertThat(tokens.size()).isGreaterThan(10);
        assertThat(tokens.stream().map(t -> t.get("message_id").asText()).distinct()).hasSize(1);
        StringBuilder streamed = new StringBuilder();
        tokens.forEach(t -> streamed.append(t.get("text").asText()));
        assertThat(streamed.toString()).startsWith("Here is a plan for your week");

        assertThat(events.stream().filter(e -> e.get("event").asText().equals("custom") && e.get("name").asText().equals("summarized"))).hasSize(1);
        JsonNode finalValues = events.get(events.size() - 1).get("values");
        assertThat(finalValues.get("summary").asText()).startsWith("Summary:");
        assertThat(finalValues.get("messages").get(finalValues.get("messages").size() - 1).get("content").asText()).isEqualTo(streamed.toString());
        assertThat(finalValues.get("usage").get("calls").asInt()).isEqualTo(4); // planner, planner, generator, summarizer

        // every step was checkpointed: one per step after the input's
        long steps = events.stream().filter(e -> e.get("event").asText().equals("values")).count();
        int stored = agent.history(thread, 100, null).await().atMost(Duration.ofSeconds(10)).size();
        assertThat(stored).isEqualTo(steps + 1);
        // ingress, planner, both tools (one superstep), verifier, planner, tool, verifier, generator, summarizer
        assertThat(steps).isEqualTo(9);
    }

    @Test
    void aBadRequestGetsAMachineReadableError() {
        given().contentType("application/json").body(Map.of("user_id", "ada"))
                .when().post("/dev/threads/{t}/runs", "x")
                .then().statusCode(400)
                .body("error.code", org.hamcrest.Matchers.equalTo("invalid_request"));
        given().contentType("application/json").body("{not json")
                .when().post("/dev/threads/{t}/runs", "x")
                .then().statusCode(400)
                .body("error.code", org.hamcrest.Matchers.equalTo("invalid_request"));
        given().when().get("/dev/threads/{t}/state", "no-such-" + UUID.randomUUID())
                .then().statusCode(404).body("error.code", org.hamcrest.Matchers.equalTo("not_found"));
    }
}
