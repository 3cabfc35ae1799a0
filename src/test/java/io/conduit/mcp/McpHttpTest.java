package io.conduit.mcp;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * {@code /mcp} over raw HTTP, where a client can send what the SDK never would: each bad message gets the status and
 * the JSON-RPC error code the specifications give, with a message and never a stack trace; the transport's headers
 * (Accept, Content-Type, MCP-Protocol-Version) and methods; version negotiation; an answer as one SSE event.
 */
@QuarkusTest
class McpHttpTest {

    private static RequestSpecification mcp() {
        return given().header("Accept", "application/json, text/event-stream").contentType("application/json");
    }

    private static JsonNode json(Response r) throws Exception {
        String body = r.asString();
        assertThat(body).doesNotContain("Exception").doesNotContain("\tat ");
        return JsonCodec.MAPPER.readTree(body);
    }

    private static JsonNode error(Response r, int status, int code) throws Exception {
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(status);
        JsonNode body = json(r);
        assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(body.get("error").get("code").asInt()).as(body.toString()).isEqualTo(code);
        assertThat(body.get("error").get("message").asText()).isNotBlank();
        return body;
    }

    @Test
    void badMessagesGetTheJsonRpcErrorCodes() throws Exception {
        error(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":1,").post("/mcp"), 400, JsonRpc.PARSE_ERROR);
        error(mcp().body("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        error(mcp().body("\"ping\"").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        error(mcp().body("").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        JsonNode noVersion = error(mcp().body("{\"id\":7,\"method\":\"ping\"}").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        assertThat(noVersion.get("id").asInt()).isEqualTo(7);
        error(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        error(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}").post("/mcp"), 400, JsonRpc.INVALID_REQUEST);
        error(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":[1]}").post("/mcp"), 400, JsonRpc.INVALID_PARAMS);

        JsonNode unknown = error(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":\"m-1\",\"method\":\"resources/list\"}").post("/mcp"), 200, JsonRpc.METHOD_NOT_FOUND);
        assertThat(unknown.get("id").asText()).isEqualTo("m-1");
    }

    @Test
    void aToolCallWithoutAToolOrWithBadArgumentsIsInvalidParams() throws Exception {
        error(call("{}"), 200, JsonRpc.INVALID_PARAMS);
        error(call("{\"name\":7}"), 200, JsonRpc.INVALID_PARAMS);
        assertThat(error(call("{\"name\":\"nobody\",\"arguments\":{\"input\":\"hi\"}}"), 200, JsonRpc.INVALID_PARAMS)
                .get("error").get("message").asText()).contains("Unknown tool: nobody");
        error(call("{\"name\":\"agent\"}"), 200, JsonRpc.INVALID_PARAMS);
        error(call("{\"name\":\"agent\",\"arguments\":{\"input\":\"   \"}}"), 200, JsonRpc.INVALID_PARAMS);
        error(call("{\"name\":\"agent\",\"arguments\":{\"input\":[\"hi\"]}}"), 200, JsonRpc.INVALID_PARAMS);
        error(call("{\"name\":\"agent\",\"arguments\":{\"input\":\"hi\",\"thread\":\"t\"}}"), 200, JsonRpc.INVALID_PARAMS);
        // text the run's input refuses (longer than a message may be): the arguments' fault, named as the tool names it
        String huge = "x".repeat(200_001);
        JsonNode tooLong = error(call("{\"name\":\"agent\",\"arguments\":{\"input\":\"" + huge + "\"}}"), 200, JsonRpc.INVALID_PARAMS);
        assertThat(tooLong.get("error").get("message").asText()).startsWith("Invalid arguments: input");
    }

    private static Response call(String params) {
        return mcp().body("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":" + params + "}").post("/mcp");
    }

    @Test
    void initializeNegotiatesTheRevision() throws Exception {
        assertThat(initialize("2025-06-18").get("result").get("protocolVersion").asText()).isEqualTo("2025-06-18");
        assertThat(initialize("2024-11-05").get("result").get("protocolVersion").asText()).isEqualTo("2024-11-05");
        JsonNode future = initialize("2099-01-01").get("result");
        assertThat(future.get("protocolVersion").asText()).isEqualTo(ProtocolVersions.LATEST);
        assertThat(future.get("capabilities").get("tools").isObject()).isTrue();
        assertThat(future.get("serverInfo").get("name").asText()).isEqualTo("conduit");
    }

    private static JsonNode initialize(String version) throws Exception {
        Response r = mcp().body("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"" + version
                + "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}").post("/mcp");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("Mcp-Session-Id")).as("stateless: no session").isNull();
        return json(r);
    }

    @Test
    void theTransportsHeadersAndMethods() throws Exception {
        Response note = mcp().body("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").post("/mcp");
        assertThat(note.statusCode()).isEqualTo(202);
        assertThat(note.asString()).isEmpty();
        assertThat(mcp().body("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}").post("/mcp").statusCode()).isEqualTo(202);

        error(mcp().header("MCP-Protocol-Version", "1999-01-01").body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp"),
                400, JsonRpc.INVALID_REQUEST);
        Response ping = mcp().header("MCP-Protocol-Version", "2025-06-18").header("Mcp-Session-Id", "not-issued-here")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").post("/mcp");
        assertThat(ping.statusCode()).isEqualTo(200);
        assertThat(json(ping).get("result").isObject()).isTrue();

        Response sse = given().header("Accept", "text/event-stream").contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}").post("/mcp");
        assertThat(sse.statusCode()).isEqualTo(200);
        assertThat(sse.contentType()).startsWith("text/event-stream");
        String data = sse.asString().lines().filter(l -> l.startsWith("data: ")).findFirst().orElseThrow().substring(6);
        assertThat(JsonCodec.MAPPER.readTree(data).get("result").get("tools").isArray()).isTrue();

        error(given().header("Accept", "text/html").contentType("application/json").body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .post("/mcp"), 406, JsonRpc.INVALID_REQUEST);
        error(given().header("Accept", "application/json").contentType("text/plain").body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")
                .post("/mcp"), 415, JsonRpc.INVALID_REQUEST);

        // a browser's origin: on this machine (an MCP inspector) it may call; another site's (DNS rebinding) may not
        String ping1 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        assertThat(mcp().header("Origin", "http://localhost:6274").body(ping1).post("/mcp").statusCode()).isEqualTo(200);
        error(mcp().header("Origin", "http://rebound.example").body(ping1).post("/mcp"), 403, JsonRpc.INVALID_REQUEST);

        Response get = given().header("Accept", "text/event-stream").get("/mcp");
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.header("Allow")).isEqualTo("POST");
        assertThat(given().delete("/mcp").statusCode()).isEqualTo(405);
    }
}
