package io.conduit.mcp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The MCP server judged by the MCP TypeScript SDK's own client ({@code @modelcontextprotocol/sdk}, src/test/js/mcp-client.mjs)
 * against the whole service, the agent on the simulator: it connects (the SDK checks the negotiated revision and
 * takes the 405 on its GET for a server stream), pings, lists the assistants as tools, calls one and reads the
 * simulated model's answer, and gets JSON-RPC errors for bad arguments and for a tool that does not exist. Run on
 * each store ({@link McpClientTest}: Postgres; {@link McpClientInMemoryTest}: memory).
 */
abstract class McpClientContract {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private JsonNode client(String... args) throws Exception {
        if (!new File("src/test/js/node_modules/@modelcontextprotocol/sdk/package.json").isFile()) {
            fail("The MCP SDK is not installed: run `npm ci --prefix src/test/js` and test again.");
        }
        List<String> all = new ArrayList<>(List.of("http://localhost:" + port));
        all.addAll(List.of(args));
        return NodeClient.run("mcp-client.mjs", 120, all.toArray(String[]::new));
    }

    @Test
    void theSdkClientListsTheAssistantsAsToolsAndCallsOne() throws Exception {
        JsonNode r = client("", "agent", "hello from an MCP client");

        assertThat(r.get("protocolVersion").asText()).isEqualTo(ProtocolVersions.LATEST);
        assertThat(r.get("sessionId").isNull()).as("stateless: no session issued").isTrue();
        assertThat(r.get("server").get("name").asText()).isEqualTo("conduit");
        assertThat(r.get("capabilities").has("tools")).isTrue();

        List<String> names = new ArrayList<>();
        r.get("tools").forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).contains("agent").doesNotHaveDuplicates().allMatch(n -> n.matches("[A-Za-z0-9_.-]{1,128}"));
        JsonNode agent = tool(r, "agent");
        assertThat(agent.get("description").asText()).as("the graph's description, a full stop, then how to call it")
                .matches("The default assistant: .*summarizer\\. Ask it one question; .*");
        assertThat(agent.get("inputSchema").get("required").get(0).asText()).isEqualTo("input");
        assertThat(agent.get("inputSchema").get("properties").get("input").get("type").asText()).isEqualTo("string");

        assertThat(r.get("answer").get("isError").asBoolean()).isFalse();
        assertThat(r.get("answer").get("text").asText()).endsWith("You said: hello from an MCP client");

        assertThat(r.get("badArguments").get("thrown").asBoolean()).isTrue();
        assertThat(r.get("badArguments").get("code").asInt()).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(r.get("badArguments").get("message").asText()).contains("question is not an argument");
        assertThat(r.get("unknownTool").get("code").asInt()).isEqualTo(JsonRpc.INVALID_PARAMS);
        assertThat(r.get("unknownTool").get("message").asText()).contains("Unknown tool: no_such_assistant");
    }

    @Test
    void anAssistantCreatedThroughTheApiIsAToolByItsNameMadeValid() throws Exception {
        String name = "Support desk " + UUID.randomUUID().toString().substring(0, 8) + "!";
        given().contentType("application/json").body(Map.of("graph_id", "agent", "name", name, "description", "Answers support questions."))
                .when().post("/assistants").then().statusCode(200);
        String toolName = name.replace(' ', '_').replace('!', '_');

        JsonNode r = client("", toolName, "is my order late");

        assertThat(tool(r, toolName).get("title").asText()).isEqualTo(name);
        assertThat(tool(r, toolName).get("description").asText()).startsWith("Answers support questions.");
        assertThat(r.get("answer").get("text").asText()).endsWith("You said: is my order late");
    }

    private static JsonNode tool(JsonNode r, String name) {
        for (JsonNode t : r.get("tools")) {
            if (t.get("name").asText().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no tool " + name + " in " + r.get("tools"));
    }
}
