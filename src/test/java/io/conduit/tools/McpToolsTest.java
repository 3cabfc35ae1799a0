package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.conduit.agent.ToolCall;
import io.conduit.agent.ToolOutcome;
import io.conduit.checkpoint.JsonCodec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** MCP tools, listed and called like any other, against a small MCP server (streamable HTTP) started by the test. */
class McpToolsTest {

    HttpServer server;
    final List<String> methods = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/mcp", this::handle);
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** JSON-RPC over POST, answered with JSON; no server-to-client stream (GET is refused, as the spec allows). */
    private void handle(HttpExchange ex) throws IOException {
        if (!ex.getRequestMethod().equals("POST")) {
            ex.sendResponseHeaders(405, -1);
            ex.close();
            return;
        }
        JsonNode req = JsonCodec.MAPPER.readTree(ex.getRequestBody());
        String method = req.path("method").asText();
        methods.add(method);
        if (!req.has("id")) {
            ex.sendResponseHeaders(202, -1);
            ex.close();
            return;
        }
        ObjectNode result = JsonCodec.MAPPER.createObjectNode();
        switch (method) {
            case "initialize" -> {
                result.put("protocolVersion", req.path("params").path("protocolVersion").asText("2025-03-26"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "test-mcp").put("version", "1");
            }
            case "tools/list" -> result.set("tools", JsonCodec.MAPPER.readTree("[{\"name\":\"add\",\"description\":\"Adds two integers\","
                    + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\"},\"b\":{\"type\":\"integer\"}},\"required\":[\"a\",\"b\"]}}]"));
            case "tools/call" -> {
                JsonNode args = req.path("params").path("arguments");
                result.putArray("content").addObject().put("type", "text").put("text", String.valueOf(args.path("a").asInt() + args.path("b").asInt()));
                result.put("isError", false);
            }
            default -> { }
        }
        ObjectNode response = JsonCodec.MAPPER.createObjectNode().put("jsonrpc", "2.0");
        response.set("id", req.get("id"));
        response.set("result", result);
        byte[] out = response.toString().getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(200, out.length);
        ex.getResponseBody().write(out);
        ex.close();
    }

    ToolsConfig.McpServerConfig at(String url) {
        return new ToolsConfig.McpServerConfig() {
            public String url() { return url; }
            public Duration timeout() { return Duration.ofSeconds(5); }
        };
    }

    @Test
    void anMcpServersToolsAreListedValidatedAndCalledLikeAnyOther() {
        List<Tool> tools = McpServers.tools(Map.of("calc", at("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp")));
        ToolExecutor ex = ToolExecutorTest.executor(tools.toArray(Tool[]::new));
        assertThat(ex.specs()).singleElement().satisfies(s -> {
            assertThat(s.name()).isEqualTo("add");
            assertThat(s.description()).isEqualTo("Adds two integers");
            assertThat(s.parametersSchema()).contains("\"a\"").contains("integer");
        });
        ToolOutcome sum = ex.call(new ToolCall("c", "add", "{\"a\":2,\"b\":40}"), ToolExecutorTest.SCOPE).await().atMost(Duration.ofSeconds(10));
        assertThat(sum.error()).isFalse();
        assertThat(sum.content()).isEqualTo("42");
        int calls = (int) methods.stream().filter("tools/call"::equals).count();
        ToolOutcome invalid = ex.call(new ToolCall("c", "add", "{\"a\":\"two\"}"), ToolExecutorTest.SCOPE).await().atMost(Duration.ofSeconds(10));
        assertThat(invalid.error()).isTrue();
        assertThat(invalid.content()).startsWith("invalid arguments for add");
        assertThat(methods.stream().filter("tools/call"::equals).count()).as("rejected before reaching the server").isEqualTo(calls);
        assertThat(methods).contains("initialize", "tools/list");
    }

    @Test
    void anUnreachableServerIsLeftOutInsteadOfFailingStartUp() {
        assertThat(McpServers.tools(Map.of("gone", at("http://127.0.0.1:1/mcp")))).isEmpty();
    }
}
