package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.conduit.agent.port.ToolOutcome;
import io.conduit.agent.port.ToolSpec;
import io.conduit.kernel.JsonCodec;
import io.conduit.tools.ToolsConfig.McpTransportKind;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** MCP servers' tools, listed at start-up and called through the executor like any other, against servers started by the test. */
class McpToolsTest {

    record Server(String url, McpTransportKind transport, Duration timeout, Map<String, String> headers) implements ToolsConfig.McpServerConfig {
        Server(String url, McpTransportKind transport) {
            this(url, transport, Duration.ofSeconds(5), Map.of());
        }
    }

    SseMcpServer server;
    McpServers connected;

    @BeforeEach
    void start() throws IOException {
        server = new SseMcpServer();
    }

    @AfterEach
    void stop() {
        // the client first: a server that stops under a connected client is another test's subject
        if (connected != null) {
            connected.close();
        }
        server.close();
    }

    ToolExecutor executorFor(Map<String, ToolsConfig.McpServerConfig> servers) {
        connected = McpServers.connect(servers, Duration.ofSeconds(5), ReachableAddresses.publicAnd(List.of("127.0.0.1")));
        return ToolExecutors.of(connected.tools().toArray(Tool[]::new));
    }

    @Test
    void aServerAtANonPublicAddressThatIsNotListedIsNotConnected() {
        connected = McpServers.connect(Map.of("calc", new Server(server.sseUrl(), McpTransportKind.SSE)), Duration.ofSeconds(5),
                ReachableAddresses.publicAnd(List.of()));
        assertThat(connected.tools()).isEmpty();
    }

    @Test
    void anSseServersToolsAreListedAndCalledLikeAnyOther() throws IOException {
        ToolExecutor ex = executorFor(Map.of("calc", new Server(server.sseUrl(), McpTransportKind.SSE)));
        assertThat(ex.specs()).extracting(ToolSpec::name).containsExactly("add", "divide");
        ToolSpec add = ex.specs().get(0);
        assertThat(add.description()).isEqualTo("Adds two integers");
        JsonNode schema = JsonCodec.MAPPER.readTree(add.parametersSchema());
        assertThat(schema.at("/properties/a/type").asText()).isEqualTo("integer");
        assertThat(schema.at("/properties/b/type").asText()).isEqualTo("integer");
        assertThat(schema.at("/required").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(server.methods).startsWith("initialize", "notifications/initialized").contains("tools/list");

        ToolOutcome sum = ToolExecutors.call(ex, "add", "{\"a\":2,\"b\":40}");
        assertThat(sum.error()).isFalse();
        assertThat(sum.content()).isEqualTo("42");
        assertThat(sum.attempts()).isEqualTo(1);
        assertThat(server.calls()).isEqualTo(1);
    }

    @Test
    void aCallThatBreaksTheSchemaIsRejectedBeforeReachingTheServer() throws IOException {
        ToolExecutor ex = executorFor(Map.of("calc", new Server(server.sseUrl(), McpTransportKind.SSE)));
        ToolOutcome invalid = ToolExecutors.call(ex, "add", "{\"a\":\"two\"}");
        assertThat(invalid.error()).isTrue();
        assertThat(invalid.attempts()).isZero();
        assertThat(invalid.content()).isEqualTo("invalid arguments for add: $.a: string found, integer expected; $: required property 'b' not found");
        assertThat(server.calls()).isZero();
    }

    @Test
    void aToolErrorFromTheServerIsAnErrorOutcome() throws IOException {
        ToolExecutor ex = executorFor(Map.of("calc", new Server(server.sseUrl(), McpTransportKind.SSE)));
        assertThat(ToolExecutors.call(ex, "divide", "{\"a\":1,\"b\":4}").content()).isEqualTo("0.25");
        ToolOutcome o = ToolExecutors.call(ex, "divide", "{\"a\":1,\"b\":0}");
        assertThat(o.error()).isTrue();
        assertThat(o.attempts()).isEqualTo(1);
        assertThat(o.content()).isEqualTo("divide failed: cannot divide by zero");
    }

    @Test
    void aServerThatGoesAwayMakesItsToolsCallsErrorOutcomes() throws IOException {
        ToolExecutor ex = executorFor(Map.of("calc", new Server(server.sseUrl(), McpTransportKind.SSE)));
        server.close();
        ToolOutcome o = ToolExecutors.call(ex, "add", "{\"a\":1,\"b\":2}");
        assertThat(o.error()).isTrue();
        assertThat(o.content()).startsWith("add failed");
    }

    @Test
    void aServerThatCannotBeReachedAtStartUpIsLeftOut() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        ToolExecutor ex = executorFor(Map.of(
                "gone-sse", new Server("http://127.0.0.1:" + closedPort + "/sse", McpTransportKind.SSE),
                "gone-http", new Server("http://127.0.0.1:" + closedPort + "/mcp", McpTransportKind.STREAMABLE_HTTP),
                "calc", new Server(server.sseUrl(), McpTransportKind.SSE)));
        assertThat(ex.specs()).extracting(ToolSpec::name).containsExactly("add", "divide");
    }

    @Test
    void aStreamableHttpServersToolsWorkTheSameWay() throws IOException {
        List<String> methods = new CopyOnWriteArrayList<>();
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        ExecutorService threads = Executors.newCachedThreadPool();
        http.setExecutor(threads);
        http.createContext("/mcp", ex -> streamableHttp(ex, methods));
        http.start();
        try {
            ToolExecutor ex = executorFor(Map.of("calc", new Server("http://127.0.0.1:" + http.getAddress().getPort() + "/mcp",
                    McpTransportKind.STREAMABLE_HTTP)));
            assertThat(ex.specs()).extracting(ToolSpec::name).containsExactly("add", "divide");
            assertThat(ToolExecutors.call(ex, "add", "{\"a\":20,\"b\":22}").content()).isEqualTo("42");
            assertThat(methods).contains("initialize", "tools/list", "tools/call");
        } finally {
            connected.close();
            connected = null;
            http.stop(0);
            threads.shutdownNow();
        }
    }

    /** Streamable HTTP, the simple way: each POSTed request answered in its response, as JSON; no GET stream. */
    private static void streamableHttp(HttpExchange ex, List<String> methods) throws IOException {
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
            case "tools/list" -> result.set("tools", JsonCodec.MAPPER.readTree(SseMcpServer.TOOLS));
            case "tools/call" -> {
                JsonNode args = req.path("params").path("arguments");
                result.putArray("content").addObject().put("type", "text").put("text", String.valueOf(args.path("a").asLong() + args.path("b").asLong()));
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
}
