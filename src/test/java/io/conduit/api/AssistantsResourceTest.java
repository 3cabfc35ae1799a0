package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.conduit.runs.graphs.GraphRegistry;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Assistants as the SDK manages them: a graph plus settings that override its defaults, checked against the graph's
 * schema, versioned; a run on an assistant runs with its settings.
 */
@QuarkusTest
class AssistantsResourceTest {

    @Test
    void everyGraphIsASystemAssistantUnderLangGraphsId() {
        // uuid5(6ba7b821-9dad-11d1-80b4-00c04fd430c8, "agent"), as Python's uuid.uuid5 computes it
        assertThat(GraphRegistry.assistantId("agent")).isEqualTo("fe096781-5601-53d2-b2f6-0d3403f7e9ca");
        given().contentType("application/json").body(Map.of("graph_id", "agent")).when().post("/assistants/search")
                .then().statusCode(200).body("assistant_id", hasItem(GraphRegistry.assistantId("agent")))
                .body("[0].metadata.created_by", equalTo("system"));
        given().when().get("/assistants/agent").then().statusCode(200).body("graph_id", equalTo("agent"));
        given().when().get("/assistants/{id}/schemas", GraphRegistry.assistantId("agent")).then().statusCode(200)
                .body("config_schema.properties.retry_budget.type", equalTo("integer"));
        given().when().get("/assistants/agent/graph").then().statusCode(200).body("mermaid", containsString("planner"));
    }

    @Test
    void createValidateVersionAndDelete() {
        String id = "strict-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("graph_id", "agent", "config", Map.of("configurable", Map.of("retry_budget", "many"))))
                .when().post("/assistants").then().statusCode(422).body("detail", containsString("config.configurable.retry_budget"));
        given().contentType("application/json").body(Map.of("graph_id", "nope")).when().post("/assistants")
                .then().statusCode(422).body("detail", containsString("graph_id"));
        given().contentType("application/json").body(Map.of("assistant_id", id, "graph_id", "agent", "name", "strict",
                        "config", Map.of("configurable", Map.of("retry_budget", 0))))
                .when().post("/assistants").then().statusCode(200).body("version", equalTo(1)).body("name", equalTo("strict"));
        given().contentType("application/json").body(Map.of("assistant_id", id, "graph_id", "agent"))
                .when().post("/assistants").then().statusCode(409);
        given().contentType("application/json").body(Map.of("assistant_id", id, "graph_id", "agent", "if_exists", "do_nothing"))
                .when().post("/assistants").then().statusCode(200).body("name", equalTo("strict"));
        given().contentType("application/json").body(Map.of("name", "stricter")).when().patch("/assistants/{id}", id)
                .then().statusCode(200).body("version", equalTo(2)).body("config.configurable.retry_budget", equalTo(0));
        given().contentType("application/json").body(Map.of()).when().post("/assistants/{id}/versions", id)
                .then().statusCode(200).body("size()", equalTo(2));
        given().contentType("application/json").body(Map.of("version", 1)).when().post("/assistants/{id}/latest", id)
                .then().statusCode(200).body("name", equalTo("strict"));
        given().when().get("/assistants/{id}", id).then().statusCode(200).body("version", equalTo(1));
        given().when().delete("/assistants/{id}", id).then().statusCode(204);
        given().when().get("/assistants/{id}", id).then().statusCode(404).body("code", equalTo("not_found"));
    }

    @Test
    void aRunOnAnAssistantRunsWithItsSettings() throws Exception {
        String id = "narrow-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("assistant_id", id, "graph_id", "agent",
                        "config", Map.of("configurable", Map.of("retry_budget", 0, "tools", List.of("get_current_time")))))
                .when().post("/assistants").then().statusCode(200);
        String thread = given().contentType("application/json").body(Map.of()).when().post("/threads").then().statusCode(200).extract().path("thread_id");
        String body = given().contentType("application/json")
                .body(Map.of("assistant_id", id, "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))),
                        "stream_mode", List.of("values", "custom")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<SseClient.Sse> events = SseClient.parse(body);
        assertThat(events.get(events.size() - 1).event()).isEqualTo("end");
        // the budget of 0 re-plans never; recall is not among the assistant's tools
        assertThat(events.stream().filter(e -> e.event().equals("custom") && e.data().get("name").asText().equals("planning_retry"))).isEmpty();
        var values = events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        assertThat(values.get("messages").toString()).contains("recall is not available to this assistant");
        // a run's own settings are checked too
        given().contentType("application/json")
                .body(Map.of("assistant_id", id, "input", Map.of("messages", List.of(Map.of("role", "user", "content", "hi"))),
                        "config", Map.of("configurable", Map.of("planner_mode", "sideways"))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(422).body("detail", containsString("planner_mode"));
    }
}
