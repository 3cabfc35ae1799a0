package io.conduit.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small MCP server over HTTP with SSE (the 2024-11-05 transport), for tests. {@code GET /sse} opens an event stream
 * whose first event, {@code endpoint}, names the URL to POST JSON-RPC messages to; each POST is accepted (202) and its
 * response pushed as a {@code message} event on the stream. Tools: {@code add} (two integers) and {@code divide}
 * (an MCP tool error when dividing by zero).
 */
final class SseMcpServer implements AutoCloseable {

    static final String TOOLS = """
            [{"name":"add","description":"Adds two integers",
              "inputSchema":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"]}},
             {"name":"divide","description":"Divides a by b",
              "inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}]""";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final Map<String, OutputStream> streams = new ConcurrentHashMap<>();
    /** The JSON-RPC methods received, in order. */
    final List<String> methods = new CopyOnWriteArrayList<>();

    SseMcpServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/sse", this::openStream);
        server.createContext("/message", this::receive);
        server.start();
    }

    String sseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/sse";
    }

    long calls() {
        return methods.stream().filter("tools/call"::equals).count();
    }

    private void openStream(HttpExchange exchange) throws IOException {
        if (!exchange.getRequestMethod().equals("GET")) {
            exchange.sendResponseHeaders(405, -1);
            exchange.close();
            return;
        }
        String session = UUID.randomUUID().toString();
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().add("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        streams.put(session, out);
        push(out, "endpoint", "/message?sessionId=" + session);
        // the exchange stays open: it is the stream the responses go down
    }

    private void receive(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        OutputStream stream = query == null ? null : streams.get(query.replace("sessionId=", ""));
        if (!exchange.getRequestMethod().equals("POST") || stream == null) {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
            return;
        }
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        String method = request.path("method").asText();
        methods.add(method);
        exchange.sendResponseHeaders(202, -1);
        exchange.close();
        if (request.has("id")) {
            ObjectNode response = JSON.createObjectNode().put("jsonrpc", "2.0");
            response.set("id", request.get("id"));
            response.set("result", result(method, request.path("params")));
            push(stream, "message", response.toString());
        }
    }

    private static JsonNode result(String method, JsonNode params) throws IOException {
        ObjectNode result = JSON.createObjectNode();
        switch (method) {
            case "initialize" -> {
                result.put("protocolVersion", params.path("protocolVersion").asText("2024-11-05"));
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "test-mcp").put("version", "1");
            }
            case "tools/list" -> result.set("tools", JSON.readTree(TOOLS));
            case "tools/call" -> {
                JsonNode args = params.path("arguments");
                boolean divideByZero = params.path("name").asText().equals("divide") && args.path("b").asDouble() == 0;
                String text = switch (params.path("name").asText()) {
                    case "add" -> String.valueOf(args.path("a").asLong() + args.path("b").asLong());
                    case "divide" -> divideByZero ? "cannot divide by zero" : String.valueOf(args.path("a").asDouble() / args.path("b").asDouble());
                    default -> "unknown tool";
                };
                result.putArray("content").addObject().put("type", "text").put("text", text);
                result.put("isError", divideByZero);
            }
            default -> { } // ping, and anything else: an empty result
        }
        return result;
    }

    private static void push(OutputStream stream, String event, String data) throws IOException {
        synchronized (stream) {
            stream.write(("event: " + event + "\ndata: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
            stream.flush();
        }
    }

    @Override
    public synchronized void close() {
        if (threads.isShutdown()) {
            return;
        }
        server.stop(0);
        threads.shutdownNow();
    }
}
