package io.conduit.tools;

import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The services the configured tools of {@link ToolBoxWiringTest} reach, started before Quarkus so their URLs can go
 * into its config: a course-guide HTTP service that echoes the request (its credential and a student number included,
 * for redaction to hide) and the SSE MCP server.
 */
public class ToolServices implements QuarkusTestResourceLifecycleManager {

    static final String TOKEN = "Bearer wiring-secret-123";

    private HttpServer guides;
    private SseMcpServer mcp;

    @Override
    public Map<String, String> start() {
        try {
            guides = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            guides.createContext("/", exchange -> {
                int status = exchange.getRequestURI().getRawPath().endsWith("/broken") ? 500 : 200;
                byte[] out = ("guide for " + exchange.getRequestURI().getRawPath() + " of student-123456, auth="
                        + exchange.getRequestHeaders().getFirst("Authorization")).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(status, out.length); // a failure echoes the credential too
                exchange.getResponseBody().write(out);
                exchange.close();
            });
            guides.start();
            mcp = new SseMcpServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String guide = "conduit.tools.http.\"course-guide\".";
        return Map.of(
                "conduit.tools.http-allowed-hosts", "127.0.0.1",
                "conduit.tools.private-addresses", "127.0.0.1",
                guide + "url", "http://127.0.0.1:" + guides.getAddress().getPort() + "/guides/{topic}",
                guide + "description", "The course guide for a topic",
                guide + "schema", "{\"type\":\"object\",\"properties\":{\"topic\":{\"type\":\"string\"}},\"required\":[\"topic\"],\"additionalProperties\":false}",
                guide + "headers.Authorization", TOKEN,
                "conduit.tools.redact", "student-[0-9]{6}",
                "conduit.tools.mcp.calc.url", mcp.sseUrl());
    }

    @Override
    public void stop() {
        if (guides != null) {
            guides.stop(0);
        }
        if (mcp != null) {
            mcp.close();
        }
    }
}
