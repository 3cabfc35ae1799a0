package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.api.SseClient.Sse;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Request and event shapes as the LangGraph SDK sends and reads them, each found wrong by the SDK's own client
 * (langgraph-sdk-client.mjs): a list of stream modes as a repeated query parameter, {@code before} as a Config, the
 * payload of {@code on_custom_event}, and the run id that ties a chat model's stream events to its start and end.
 */
@QuarkusTest
class SdkWireShapesTest {

    private static String planRun(String thread) {
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        return given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))),
                        "stream_mode", List.of("values", "updates", "events")))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200)
                .extract().header("Content-Location").replaceFirst(".*/runs/", "");
    }

    private static List<Sse> join(String thread, String run, String query) throws Exception {
        return SseClient.parse(given().urlEncodingEnabled(false).header("Last-Event-ID", "-1")
                .when().get("/threads/" + thread + "/runs/" + run + "/stream" + query).then().statusCode(200).extract().asString());
    }

    @Test
    void aJoinReadsEveryStreamModeParameterAndTheJsonList() throws Exception {
        String thread = "wire-" + UUID.randomUUID();
        String run = planRun(thread);
        // SDK 1.x: stream_mode=values&stream_mode=updates; SDK 2.0: stream_mode=["values","updates"]
        for (String query : List.of("?stream_mode=values&stream_mode=updates", "?stream_mode=%5B%22values%22%2C%22updates%22%5D")) {
            Set<String> seen = join(thread, run, query).stream().map(Sse::event).collect(Collectors.toSet());
            assertThat(seen).as(query).containsExactlyInAnyOrder("metadata", "values", "updates", "end");
        }
        assertThat(join(thread, run, "?stream_mode=events").stream().map(Sse::event).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("metadata", "events", "end");
        given().when().get("/threads/{t}/runs/{r}/stream?stream_mode=values&stream_mode=nope", thread, run)
                .then().statusCode(422).body("detail", org.hamcrest.Matchers.containsString("nope"));
    }

    @Test
    void customEventsCarryTheirPayloadAndModelChunksTheirCallsRunId() throws Exception {
        String thread = "wire-" + UUID.randomUUID();
        String run = planRun(thread);
        List<JsonNode> events = join(thread, run, "?stream_mode=events").stream().filter(e -> e.event().equals("events")).map(Sse::data).toList();
        List<JsonNode> custom = events.stream().filter(e -> e.get("event").asText().equals("on_custom_event")).toList();
        assertThat(custom).hasSize(1);
        assertThat(custom.get(0).get("name").asText()).isEqualTo("planning_retry");
        assertThat(custom.get(0).path("data").path("attempt").asInt()).isEqualTo(1);
        assertThat(custom.get(0).path("data").path("problems").toString()).contains("recall returned nothing");

        String call = null;
        int chunks = 0;
        for (JsonNode e : events) {
            switch (e.get("event").asText()) {
                case "on_chat_model_start" -> call = e.get("run_id").asText();
                case "on_chat_model_stream" -> {
                    assertThat(e.get("run_id").asText()).as("a chunk's run_id is its call's").isEqualTo(call);
                    chunks++;
                }
                case "on_chat_model_end" -> {
                    assertThat(e.get("run_id").asText()).isEqualTo(call);
                    call = null;
                }
                default -> { }
            }
        }
        assertThat(chunks).isGreaterThan(10);
    }

    @Test
    void historyBeforeTakesACheckpointIdACheckpointOrAConfig() {
        String thread = "wire-" + UUID.randomUUID();
        planRun(thread);
        List<String> all = given().contentType("application/json").body(Map.of("limit", 100))
                .when().post("/threads/{t}/history", thread).then().statusCode(200).extract().path("checkpoint.checkpoint_id");
        String pivot = all.get(2);
        for (Object before : List.of(pivot, Map.of("checkpoint_id", pivot), Map.of("configurable", Map.of("checkpoint_id", pivot)))) {
            List<String> page = given().contentType("application/json").body(Map.of("limit", 2, "before", before))
                    .when().post("/threads/{t}/history", thread).then().statusCode(200).extract().path("checkpoint.checkpoint_id");
            assertThat(page).as("before %s", before).isEqualTo(all.subList(3, 5));
        }
    }

    @Test
    void aRunsKwargsAreItsRequestAsGivenWithTheServersFields() throws Exception {
        String thread = "wire-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        String body = """
                {"assistant_id": "agent", "input": {"messages": [{"role": "user", "content": "Please plan my week"}]},
                 "stream_mode": ["messages-tuple", "updates", "messages"], "metadata": {"k": "v"}, "feedback_keys": ["a"],
                 "config": {"configurable": {"user_id": "u1"}, "tags": ["t"]}, "durability": "sync",
                 "graph_id": "not-the-client's", "temporary": true, "custom": {"x": [1, null, 2.5]}}""";
        String run = given().contentType("application/json").body(body).when().post("/threads/{t}/runs/wait", thread).then().statusCode(200)
                .extract().header("Content-Location").replaceFirst(".*/runs/", "");
        JsonNode kwargs = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/runs/{r}", thread, run)
                .then().statusCode(200).extract().asString()).get("kwargs");
        JsonNode sent = JsonCodec.MAPPER.readTree(body);
        String graph = given().when().get("/assistants/agent").then().statusCode(200).extract().path("graph_id");
        // the server's graph, the modes as asked, the merged config; a client's
        // graph_id and temporary are not the run's
        assertThat(names(kwargs)).containsExactlyInAnyOrder("input", "stream_mode", "metadata", "feedback_keys", "config", "durability",
                "graph_id", "custom");
        assertThat(kwargs.get("graph_id").asText()).isEqualTo(graph);
        assertThat(kwargs.get("stream_mode").toString()).isEqualTo("[\"messages-tuple\",\"updates\",\"messages\"]");
        for (String asGiven : List.of("input", "metadata", "feedback_keys", "durability", "custom")) {
            assertThat(kwargs.get(asGiven)).as(asGiven).isEqualTo(sent.get(asGiven));
        }
        assertThat(kwargs.path("config").path("configurable").path("user_id").asText()).isEqualTo("u1");
        assertThat(kwargs.path("config").path("tags")).isEqualTo(sent.path("config").path("tags"));
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
