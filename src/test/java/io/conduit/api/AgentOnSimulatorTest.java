package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.api.SseClient.Sse;
import io.conduit.graph.CompiledGraph;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
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
            return Map.of("conduit.agent.context-token-budget", "40", "conduit.agent.keep-recent-turns", "0",
                    "conduit.runs.heartbeat", "50ms");
        }
    }

    @Inject
    CompiledGraph agent;


    @Test
    void oneTurnCallsToolsInParallelReplansStreamsSummarizesAndCheckpointsEveryStep() throws Exception {
        String thread = "sim-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        String body = given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))),
                        "config", Map.of("configurable", Map.of("user_id", "ada")),
                        "stream_mode", List.of("values", "updates", "messages-tuple", "custom", "events")))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(200).contentType(org.hamcrest.Matchers.containsString("text/event-stream"))
                .header("Content-Location", org.hamcrest.Matchers.startsWith("/threads/" + thread + "/runs/"))
                .extract().asString();
        List<Sse> events = SseClient.parse(body);
        assertThat(events.get(0).event()).isEqualTo("metadata");
        assertThat(events.get(events.size() - 1).event()).isEqualTo("end");
        for (int i = 1; i < events.size(); i++) {
            assertThat(events.get(i).id()).isGreaterThan(events.get(i - 1).id());
        }

        List<JsonNode> toolTasks = events.stream().filter(e -> e.event().equals("events")
                && e.data().get("event").asText().equals("on_chain_start") && e.data().get("name").asText().equals("tool_executor"))
                .map(e -> e.data().get("metadata")).toList();
        assertThat(toolTasks).hasSize(3);
        assertThat(toolTasks.get(0).get("langgraph_step").asInt()).isEqualTo(toolTasks.get(1).get("langgraph_step").asInt());
        assertThat(toolTasks.get(2).get("langgraph_step").asInt()).isGreaterThan(toolTasks.get(0).get("langgraph_step").asInt());

        // the seed protocol: each model call and each tool call as a nested run, in order
        List<String> seed = events.stream().filter(e -> e.event().equals("events")).map(e -> e.data().get("event").asText())
                .filter(n -> n.startsWith("on_chat_model_start") || n.startsWith("on_chat_model_end") || n.startsWith("on_tool_")).toList();
        assertThat(seed.stream().filter("on_chat_model_start"::equals)).hasSize(4); // planner, planner, generator, summarizer
        assertThat(seed.stream().filter("on_chat_model_end"::equals)).hasSize(4);
        assertThat(seed.stream().filter("on_tool_start"::equals)).hasSize(3);
        assertThat(seed.stream().filter("on_tool_end"::equals)).hasSize(3);
        assertThat(seed.get(0)).isEqualTo("on_chat_model_start");
        // the planner's call ends before its tools start; each tool ends after it starts (they may interleave)
        assertThat(seed.subList(0, 3)).containsExactly("on_chat_model_start", "on_chat_model_end", "on_tool_start");
        JsonNode toolStart = events.stream().filter(e -> e.event().equals("events") && e.data().get("event").asText().equals("on_tool_start"))
                .findFirst().orElseThrow().data();
        assertThat(toolStart.get("data").has("input")).isTrue();
        // the planner's tool calls streamed as argument chunks, merged by index under the planner message's id
        List<JsonNode> callChunks = events.stream().filter(e -> e.event().equals("messages"))
                .map(e -> e.data().get(0)).filter(m -> m.path("tool_call_chunks").size() > 0).toList();
        assertThat(callChunks.size()).isGreaterThan(2);
        assertThat(callChunks.stream().map(c -> c.get("tool_call_chunks").get(0).get("args").asText()).reduce("", String::concat)).contains("{");

        List<JsonNode> retries = events.stream().filter(e -> e.event().equals("custom") && e.data().get("name").asText().equals("planning_retry"))
                .map(Sse::data).toList();
        assertThat(retries).hasSize(1);
        assertThat(retries.get(0).get("data").toString()).contains("recall returned nothing");
        assertThat(events.stream().filter(e -> e.event().equals("events") && e.data().get("event").asText().equals("on_custom_event")
                && e.data().get("name").asText().equals("planning_retry"))).hasSize(1);

        List<JsonNode> chunks = events.stream().filter(e -> e.event().equals("messages"))
                .map(e -> e.data().get(0)).filter(m -> m.get("type").asText().equals("AIMessageChunk") && !m.get("content").asText().isEmpty()).toList();
        assertThat(chunks.size()).isGreaterThan(10);
        assertThat(chunks.stream().map(t -> t.get("id").asText()).distinct()).hasSize(1);
        StringBuilder streamed = new StringBuilder();
        chunks.forEach(t -> streamed.append(t.get("content").asText()));
        assertThat(streamed.toString()).startsWith("Here is a plan for your week");
        assertThat(events.stream().filter(e -> e.event().equals("messages") && e.data().get(0).get("type").asText().equals("tool"))).hasSize(3);

        assertThat(events.stream().filter(e -> e.event().equals("custom") && e.data().get("name").asText().equals("summarized"))).hasSize(1);
        List<Sse> values = events.stream().filter(e -> e.event().equals("values")).toList();
        JsonNode finalValues = values.get(values.size() - 1).data();
        assertThat(finalValues.get("summary").asText()).startsWith("Summary:");
        JsonNode messages = finalValues.get("messages");
        assertThat(messages.get(0).get("type").asText()).isEqualTo("human");
        assertThat(messages.get(messages.size() - 1).get("content").asText()).isEqualTo(streamed.toString());
        assertThat(messages.get(messages.size() - 1).get("id").asText()).isEqualTo(chunks.get(0).get("id").asText());
        assertThat(finalValues.get("usage").get("calls").asInt()).isEqualTo(4); // planner, planner, generator, summarizer
        assertThat(finalValues.get("user_id").asText()).isEqualTo("ada");

        // every step was checkpointed: one per step after the input's
        int stored = agent.history(thread, 100, null).await().atMost(Duration.ofSeconds(10)).size();
        assertThat(stored).isEqualTo(values.size() + 1);
        // ingress, planner, both tools (one superstep), verifier, planner, tool, verifier, generator, summarizer
        assertThat(values).hasSize(9);

        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("idle"));
    }

    @Test
    @org.junit.jupiter.api.Timeout(60) // a guard against a hang, not a timing assertion
    void anIdleStreamSendsHeartbeats() throws Exception {
        String thread = given().contentType("application/json").body(Map.of()).when().post("/threads").then().statusCode(200).extract().path("thread_id");
        var http = java.net.http.HttpClient.newHttpClient();
        var resp = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + port + "/threads/" + thread + "/stream")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofLines());
        try (var lines = resp.body()) {
            assertThat(lines.filter(l -> l.startsWith(":")).findFirst()).contains(": heartbeat");
        }
    }

    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void badRequestsGetAMachineReadableErrorAndWriteNothing() {
        String thread = "bad-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        given().contentType("application/json").body(Map.of("input", Map.of()))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(422).body("code", org.hamcrest.Matchers.equalTo("invalid_input"))
                .body("detail", org.hamcrest.Matchers.containsString("assistant_id"));
        given().contentType("application/json").body("{not json")
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(400).body("code", org.hamcrest.Matchers.equalTo("malformed_json"));
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "input",
                        Map.of("messages", List.of(Map.of("role", "user", "content", "a\u0000b")))))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(422).body("detail", org.hamcrest.Matchers.containsString("NUL"));
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "input",
                        Map.of("messages", List.of(Map.of("role", "user", "content", "x".repeat(9000))))))
                .when().post("/threads/{t}/runs", thread)
                .then().statusCode(422).body("detail", org.hamcrest.Matchers.containsString("limit"));
        given().contentType("application/json").body(Map.of("assistant_id", "no-such-assistant"))
                .when().post("/threads/{t}/runs", thread)
                .then().statusCode(404).body("code", org.hamcrest.Matchers.equalTo("not_found"));
        given().when().get("/threads/{t}/state", "no-such-" + UUID.randomUUID())
                .then().statusCode(404).body("code", org.hamcrest.Matchers.equalTo("not_found"));
        given().when().get("/threads/{t}/state", "x".repeat(3000))
                .then().statusCode(404).body("code", org.hamcrest.Matchers.equalTo("not_found"));
        given().contentType("application/json").body("[1,2]").when().post("/threads")
                .then().statusCode(422).body("code", org.hamcrest.Matchers.equalTo("invalid_input"));
        // nothing was written: no run, no checkpoint
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(0));
        assertThat(agent.state(thread).await().atMost(Duration.ofSeconds(5))).isEmpty();
    }

    @Test
    void rejectOnABusyThreadAnswers409AndEnqueueRunsAfter() throws Exception {
        String thread = "mt-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        Map<String, Object> input = Map.of("messages", List.of(Map.of("role", "user", "content", "hi")));
        String first = given().contentType("application/json").body(Map.of("assistant_id", "agent", "input", input, "after_seconds", 30))
                .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "input", input, "multitask_strategy", "reject"))
                .when().post("/threads/{t}/runs", thread).then().statusCode(409).body("detail", org.hamcrest.Matchers.containsString("already running"));
        // cancel the delayed run: it never runs
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, first).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("interrupted"));
        String body = given().contentType("application/json").body(Map.of("assistant_id", "agent", "input", input))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString();
        assertThat(JsonCodec.MAPPER.readTree(body.trim()).get("messages").size()).isGreaterThan(1);
    }
}
