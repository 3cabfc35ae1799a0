package io.conduit.api;

import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.join;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.conduit.api.Api.tree;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A field of the wrong type is refused with 422 {@code invalid_input} naming it, never read as its default (a limit of
 * {@code "ten"} as 10, an array body as an empty patch): in bodies and in query parameters, and nothing is written.
 */
@QuarkusTest
class WrongTypesTest {

    private static Response post(String path, String json) {
        return given().contentType("application/json").body(json).when().post(path);
    }

    private static void refused(Response r, String field) {
        r.then().statusCode(422).contentType(containsString("application/json")).body("code", equalTo("invalid_input"))
                .body("detail", startsWith(field + ":"));
    }

    private static JsonNode record(String thread) {
        return tree(given().when().get("/threads/{t}", thread).then().statusCode(200).extract().asString());
    }

    @Test
    void threadsRefuseWrongTypesAndWriteNothing() {
        String thread = newThread("types-threads");
        JsonNode before = record(thread);
        for (String body : List.of("[1, 2]", "\"metadata\"", "7")) {
            refused(given().contentType("application/json").body(body).when().patch("/threads/{t}", thread), "body");
        }
        refused(given().contentType("application/json").body("{\"metadata\": [1]}").when().patch("/threads/{t}", thread), "metadata");
        assertThat(record(thread)).as("metadata and updated_at unchanged").isEqualTo(before);

        String other = "types-" + UUID.randomUUID();
        refused(post("/threads", "{\"thread_id\": 5}"), "thread_id");
        refused(post("/threads", "{\"thread_id\": \"" + other + "\", \"if_exists\": true}"), "if_exists");
        given().when().get("/threads/{t}", other).then().statusCode(404);

        refused(post("/threads/search", "{\"limit\": \"ten\"}"), "limit");
        refused(post("/threads/search", "{\"limit\": 2.5}"), "limit");
        refused(post("/threads/search", "{\"offset\": \"0\"}"), "offset");
        refused(post("/threads/search", "{\"status\": 1}"), "status");
        refused(post("/threads/search", "{\"sort_by\": 1}"), "sort_by");
        refused(post("/threads/search", "{\"sort_by\": \"colour\"}"), "sort_by");
        refused(post("/threads/search", "{\"sort_order\": \"sideways\"}"), "sort_order");
        refused(post("/threads/search", "[]"), "body");
        refused(post("/threads/count", "{\"status\": true}"), "status");
        refused(post("/threads/count", "[]"), "body");
    }

    @Test
    void historyRefusesWrongTypesAndAnUnknownCheckpoint() {
        String thread = newThread("types-history");
        join(thread, start(thread, run("hello")));
        refused(post("/threads/" + thread + "/history", "{\"limit\": \"x\"}"), "limit");
        refused(post("/threads/" + thread + "/history", "{\"before\": 5}"), "before");
        refused(post("/threads/" + thread + "/history", "{\"before\": {\"configurable\": {\"checkpoint_id\": 5}}}"), "before.configurable.checkpoint_id");
        refused(post("/threads/" + thread + "/history", "[]"), "body");
        post("/threads/" + thread + "/history", "{\"before\": \"nope\"}").then().statusCode(404).body("code", equalTo("not_found"))
                .body("detail", startsWith("before:"));
        post("/threads/" + thread + "/history", "{\"before\": {\"configurable\": {\"checkpoint_id\": \"nope\"}}}").then().statusCode(404);
        assertThat(checkpointRuns(thread)).isNotEmpty(); // a known checkpoint still lists
        refused(post("/threads/" + thread + "/state/checkpoint", "{\"checkpoint\": {\"checkpoint_id\": 5}}"), "checkpoint.checkpoint_id");
        refused(post("/threads/" + thread + "/state", "{\"values\": {}, \"as_node\": 5}"), "as_node");
        refused(post("/threads/" + thread + "/state", "{\"values\": {}, \"checkpoint_id\": 5}"), "checkpoint_id");
    }

    @Test
    void assistantsRefuseWrongTypesAndWriteNothing() {
        String marker = "types-" + UUID.randomUUID();
        String id = given().contentType("application/json").body(Map.of("graph_id", "agent", "metadata", Map.of("marker", marker)))
                .when().post("/assistants").then().statusCode(200).extract().path("assistant_id");
        JsonNode before = tree(given().when().get("/assistants/{a}", id).then().statusCode(200).extract().asString());
        String m = "\"metadata\": {\"marker\": \"" + marker + "\"}";
        refused(post("/assistants", "{\"graph_id\": 5, " + m + "}"), "graph_id");
        refused(post("/assistants", "{\"graph_id\": \"agent\", \"assistant_id\": 5, " + m + "}"), "assistant_id");
        refused(post("/assistants", "{\"graph_id\": \"agent\", \"if_exists\": 1, " + m + "}"), "if_exists");
        refused(post("/assistants", "{\"graph_id\": \"agent\", \"name\": [\"x\"], " + m + "}"), "name");
        refused(given().contentType("application/json").body("{\"graph_id\": 5}").when().patch("/assistants/{a}", id), "graph_id");
        refused(given().contentType("application/json").body("{\"name\": 5}").when().patch("/assistants/{a}", id), "name");
        refused(given().contentType("application/json").body("{\"metadata\": [1]}").when().patch("/assistants/{a}", id), "metadata");
        refused(post("/assistants/search", "{\"limit\": \"ten\"}"), "limit");
        refused(post("/assistants/search", "{\"offset\": -1}"), "offset");
        refused(post("/assistants/search", "{\"graph_id\": 5}"), "graph_id");
        refused(post("/assistants/search", "{\"name\": false}"), "name");
        refused(post("/assistants/search", "{\"sort_by\": \"colour\"}"), "sort_by");
        refused(post("/assistants/count", "{\"graph_id\": 5}"), "graph_id");
        refused(post("/assistants/count", "[]"), "body");
        refused(post("/assistants/" + id + "/versions", "{\"limit\": \"x\"}"), "limit");
        refused(post("/assistants/" + id + "/latest", "{\"version\": \"1\"}"), "version");
        given().contentType("application/json").body(Map.of("metadata", Map.of("marker", marker))).when().post("/assistants/search")
                .then().statusCode(200).body("size()", equalTo(1));
        assertThat(tree(given().when().get("/assistants/{a}", id).then().statusCode(200).extract().asString())).isEqualTo(before);
    }

    @Test
    void runQueryParametersAreChecked() {
        String thread = newThread("types-runs");
        String runId = start(thread, run("hello"));
        join(thread, runId);
        refused(given().when().get("/threads/{t}/runs?limit=ten", thread), "limit");
        refused(given().when().get("/threads/{t}/runs?offset=-1", thread), "offset");
        refused(given().when().get("/threads/{t}/runs?status=done", thread), "status");
        refused(given().when().post("/threads/{t}/runs/{r}/cancel?wait=maybe", thread, runId), "wait");
        refused(given().when().post("/threads/{t}/runs/{r}/cancel?action=explode", thread, runId), "action");
        given().when().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).body("status", equalTo("success"));
        given().when().get("/threads/{t}/runs?limit=5", thread).then().statusCode(200).body("size()", equalTo(1));
    }

    @Test
    void runBodiesRefuseWrongTypesAndStoreNoRun() {
        String thread = newThread("types-run-bodies");
        for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait")) {
            String say = "{\"assistant_id\": \"agent\", \"input\": {\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}, ";
            refused(post(path, say + "\"stream_subgraphs\": \"yes\"}"), "stream_subgraphs");
            refused(post(path, say + "\"config\": {\"recursion_limit\": \"5\"}}"), "config.recursion_limit");
            refused(post(path, say + "\"checkpoint_id\": 5}"), "checkpoint_id");
            refused(post(path, say + "\"checkpoint\": {\"checkpoint_id\": [1]}}"), "checkpoint.checkpoint_id");
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void storeRefusesWrongTypesAndStoresNothing() {
        String label = "types-" + UUID.randomUUID();
        refused(given().contentType("application/json").body("{\"namespace\": [\"" + label + "\"], \"key\": 5, \"value\": {}}")
                .when().put("/store/items"), "key");
        refused(given().contentType("application/json").body("{\"namespace\": [\"" + label + "\"], \"key\": \"k\", \"value\": {}, \"ttl\": \"5\"}")
                .when().put("/store/items"), "ttl");
        refused(given().contentType("application/json").body("{\"namespace\": [\"" + label + "\"], \"key\": \"k\", \"value\": {}, \"index\": 3}")
                .when().put("/store/items"), "index");
        refused(post("/store/items/search", "{\"namespace_prefix\": [\"" + label + "\"], \"refresh_ttl\": \"yes\"}"), "refresh_ttl");
        refused(post("/store/items/search", "{\"limit\": \"ten\"}"), "limit");
        refused(post("/store/namespaces", "{\"max_depth\": \"2\"}"), "max_depth");
        refused(given().when().get("/store/items?namespace=" + label + "&key=k&refresh_ttl=maybe"), "refresh_ttl");
        given().contentType("application/json").body(Map.of("namespace_prefix", List.of(label))).when().post("/store/items/search")
                .then().statusCode(200).body("items.size()", equalTo(0));
    }
}
