package io.conduit.tools;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.McpTransport;
import dev.langchain4j.mcp.client.transport.http.HttpMcpTransport;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The configured MCP servers: connected and their tools listed once, at start-up, on the start-up thread (LangChain4j's
 * MCP client blocks). A server that cannot be reached then is reported in the log and its tools are left out rather
 * than keeping the whole service from starting; one that goes away later makes its tools' calls error outcomes.
 * Closing disconnects them all.
 */
final class McpServers implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(McpServers.class);

    private final List<McpClient> clients;
    private final List<Tool> tools;

    private McpServers(List<McpClient> clients, List<Tool> tools) {
        this.clients = List.copyOf(clients);
        this.tools = List.copyOf(tools);
    }

    /** @param callTimeout how long the client waits for one tool call: the executor's, so a timed-out call frees its worker too */
    static McpServers connect(Map<String, ToolsConfig.McpServerConfig> servers, Duration callTimeout, ReachableAddresses addresses) {
        List<McpClient> clients = new ArrayList<>();
        List<Tool> tools = new ArrayList<>();
        servers.forEach((name, server) -> {
            try {
                addresses.check(java.net.URI.create(server.url()).getHost());
            } catch (java.io.IOException | IllegalArgumentException e) {
                LOG.errorf("MCP server %s (%s) is not reached; its tools are left out: %s", name, server.url(), e.getMessage());
                return;
            }
            McpTransport transport = transport(server);
            McpClient client = null;
            try {
                client = new DefaultMcpClient.Builder().key(name).clientName("conduit")
                        .initializationTimeout(server.timeout()).toolExecutionTimeout(callTimeout)
                        .transport(transport).build();
                List<ToolSpecification> specs = client.listTools();
                for (ToolSpecification spec : specs) {
                    tools.add(new McpTool(client, spec, Set.copyOf(server.headers().values())));
                }
                clients.add(client);
                LOG.infof("MCP server %s (%s, %s): %d tools", name, server.url(), server.transport(), specs.size());
            } catch (RuntimeException e) {
                LOG.errorf("MCP server %s (%s, %s) could not be reached; its tools are left out: %s",
                        name, server.url(), server.transport(), e.getMessage());
                close(client != null ? client : transport, name);
            }
        });
        return new McpServers(clients, tools);
    }

    List<Tool> tools() {
        return tools;
    }

    @Override
    public void close() {
        clients.forEach(c -> close(c, c.key()));
    }

    // HttpMcpTransport (HTTP with SSE) is deprecated upstream in favour of streamable HTTP, but many MCP servers
    // still speak only SSE; both are offered until it is removed
    @SuppressWarnings("removal")
    private static McpTransport transport(ToolsConfig.McpServerConfig server) {
        return switch (server.transport()) {
            case SSE -> new HttpMcpTransport.Builder().sseUrl(server.url()).timeout(server.timeout())
                    .customHeaders(server.headers()).build();
            case STREAMABLE_HTTP -> new StreamableHttpMcpTransport.Builder().url(server.url()).timeout(server.timeout())
                    .customHeaders(server.headers()).build();
        };
    }

    private static void close(AutoCloseable connection, String name) {
        try {
            connection.close();
        } catch (Exception e) {
            LOG.debugf("closing MCP server %s: %s", name, e.getMessage());
        }
    }
}
