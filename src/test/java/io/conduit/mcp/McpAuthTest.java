package io.conduit.mcp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.http.ApiKeyAuth;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code /mcp} behind API keys, like every other door: no key is 401; the SDK's client sends its key as a Bearer
 * token; a caller's tools are the system assistants and its own, so another principal's assistant is neither listed
 * nor callable.
 */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class McpAuthTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void aCallerSeesAndCallsItsOwnAssistantsOnly() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String alice = ApiKeyAuth.createKey("alice-" + suffix, false);
        String bob = ApiKeyAuth.createKey("bob-" + suffix, false);
        String name = "alices_desk_" + suffix;
        given().header("Authorization", "Bearer " + alice).contentType("application/json").body(Map.of("graph_id", "agent", "name", name))
                .when().post("/assistants").then().statusCode(200);

        assertThat(given().contentType("application/json").body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                .post("/mcp").statusCode()).isEqualTo(401);

        assertThat(toolNames(bob)).contains("agent").doesNotContain(name);
        JsonNode refused = rpc(bob, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"" + name
                + "\",\"arguments\":{\"input\":\"hi\"}}}");
        assertThat(refused.get("error").get("code").asInt()).isEqualTo(JsonRpc.INVALID_PARAMS);

        JsonNode r = NodeClient.run("mcp-client.mjs", 120, "http://localhost:" + port, alice, name, "hello from alice");
        assertThat(r.get("answer").get("text").asText()).endsWith("You said: hello from alice");
    }

    private static List<String> toolNames(String key) throws Exception {
        List<String> names = new ArrayList<>();
        rpc(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").get("result").get("tools").forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    private static JsonNode rpc(String key, String body) throws Exception {
        return JsonCodec.MAPPER.readTree(given().header("Authorization", "Bearer " + key).header("Accept", "application/json, text/event-stream")
                .contentType("application/json").body(body).post("/mcp").then().statusCode(200).extract().asString());
    }
}
