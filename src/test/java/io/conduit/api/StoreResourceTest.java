package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.conduit.NodeClient;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The store's HTTP API: judged by the LangGraph SDK's own {@code client.store} (src/test/js/store-sdk.mjs, both SDK
 * lines), and its errors: 422 naming the field for every malformed request, nothing stored.
 */
@QuarkusTest
class StoreResourceTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void theSdksStoreClientWorks() throws Exception {
        assertThat(NodeClient.run("store-sdk.mjs", 60, "http://localhost:" + port).path("checks").asInt()).isGreaterThan(10);
        assertThat(NodeClient.run("store-sdk.mjs", 60, "http://localhost:" + port, "langgraph-sdk-2").path("checks").asInt()).isGreaterThan(10);
    }

    @Test
    void malformedRequestsAre422NamingTheFieldAndStoreNothing() {
        put(Map.of("key", "k", "value", Map.of()), "namespace");
        put(Map.of("namespace", List.of(), "key", "k", "value", Map.of()), "namespace");
        put(Map.of("namespace", List.of("a.b"), "key", "k", "value", Map.of()), "namespace");
        put(Map.of("namespace", List.of("a"), "key", "", "value", Map.of()), "key");
        put(Map.of("namespace", List.of("a"), "key", "k", "value", List.of(1)), "value");
        put(Map.of("namespace", List.of("a"), "key", "k", "value", Map.of(), "ttl", -1), "ttl");
        given().get("/store/items?namespace=a&key=k").then().statusCode(200).body(equalTo("null"));
        given().get("/store/items?key=k").then().statusCode(422).body("detail", startsWith("namespace"));
        search(Map.of("filter", Map.of("x", Map.of("$near", 1))), "filter");
        search(Map.of("limit", 5000), "limit");
        search(Map.of("query", 3), "query");
        given().contentType("application/json").body(Map.of("max_depth", 0)).post("/store/namespaces").then().statusCode(422)
                .body("detail", startsWith("max_depth"));
        given().contentType("application/json").body("{not json").put("/store/items").then().statusCode(400);
    }

    @Test
    void keysAndNamespacesOverTheirLimitsAre422AndStoreNothing() {
        String label = "bounds-" + java.util.UUID.randomUUID();
        put(Map.of("namespace", List.of(label), "key", "k".repeat(3000), "value", Map.of()), "key");
        put(Map.of("namespace", List.of(label), "key", "k".repeat(257), "value", Map.of()), "key");
        put(Map.of("namespace", List.of(label, "l".repeat(257)), "key", "k", "value", Map.of()), "namespace");
        put(Map.of("namespace", java.util.Collections.nCopies(17, label), "key", "k", "value", Map.of()), "namespace");
        given().get("/store/items?namespace=" + label + "&key=" + "k".repeat(3000)).then().statusCode(422)
                .body("code", equalTo("invalid_input")).body("detail", startsWith("key"));
        given().contentType("application/json").body(Map.of("namespace_prefix", List.of(label))).post("/store/items/search")
                .then().statusCode(200).body("items.size()", equalTo(0));
        // at the limit: stored
        given().contentType("application/json").body(Map.of("namespace", List.of(label), "key", "k".repeat(256), "value", Map.of("v", 1)))
                .put("/store/items").then().statusCode(204);
        given().get("/store/items?namespace=" + label + "&key=" + "k".repeat(256)).then().statusCode(200).body("value.v", equalTo(1));
    }

    private static void put(Map<String, Object> body, String field) {
        given().contentType("application/json").body(body).put("/store/items").then().statusCode(422)
                .body("code", equalTo("invalid_input")).body("detail", startsWith(field));
    }

    private static void search(Map<String, Object> body, String field) {
        given().contentType("application/json").body(body).post("/store/items/search").then().statusCode(422).body("detail", startsWith(field));
    }
}
