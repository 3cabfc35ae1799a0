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
 * nor callable (not even by an admin), and cannot take a name the caller's client already knows.
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

    @Test
    void aToolNameKeepsNamingTheAssistantItNamedFirst() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String admin = ApiKeyAuth.createKey("root-" + suffix, true);
        String mallory = ApiKeyAuth.createKey("mallory-" + suffix, false);
        String name = "desk_" + suffix;
        createAssistant(admin, name, "the admin's first desk");
        createAssistant(admin, name, "the admin's second desk");
        createAssistant(mallory, name, "mallory's desk"); // newer than both, same name

        Map<String, String> adminTools = tools(admin);
        assertThat(adminTools).containsEntry(name, "the admin's first desk.");
        assertThat(adminTools.entrySet()).filteredOn(e -> e.getKey().startsWith(name + "_")).extracting(Map.Entry::getValue)
                .containsExactly("the admin's second desk.");
        assertThat(adminTools.values()).noneMatch(d -> d.startsWith("mallory's desk"));
        Map<String, String> malloryTools = tools(mallory);
        assertThat(malloryTools).containsEntry(name, "mallory's desk.");
        assertThat(malloryTools.values()).noneMatch(d -> d.startsWith("the admin's"));
    }

    private static void createAssistant(String key, String name, String description) {
        given().header("Authorization", "Bearer " + key).contentType("application/json")
                .body(Map.of("graph_id", "agent", "name", name, "description", description)).when().post("/assistants").then().statusCode(200);
    }

    /** Tool name to the start of its description (the assistant's own, before the sentence every tool's description ends with). */
    private static Map<String, String> tools(String key) throws Exception {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        rpc(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").get("result").get("tools")
                .forEach(t -> out.put(t.get("name").asText(), t.get("description").asText().replace(" " + AssistantTools.ONE_QUESTION, "")));
        return out;
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
