package io.conduit.tools;

import dev.langchain4j.mcp.client.DefaultMcpClient;
import dev.langchain4j.mcp.client.McpClient;
import dev.langchain4j.mcp.client.transport.http.StreamableHttpMcpTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Connects to the configured MCP servers and lists their tools. Runs at start-up, on the start-up thread (the MCP
 * client blocks). A server that cannot be reached is reported in the log and its tools are left out, rather than
 * keeping the whole service from starting.
 */
final class McpServers {

    private static final Logger LOG = Logger.getLogger(McpServers.class);

    private McpServers() {
    }

    static List<Tool> tools(Map<String, ToolsConfig.McpServerConfig> servers) {
        List<Tool> tools = new ArrayList<>();
        servers.forEach((name, server) -> {
            try {
                McpClient client = new DefaultMcpClient.Builder().key(name).toolExecutionTimeout(server.timeout())
                        .transport(new StreamableHttpMcpTransport.Builder().url(server.url()).timeout(server.timeout()).build())
                        .build();
                var specs = client.listTools();
                specs.forEach(spec -> tools.add(new McpTool(client, spec)));
                LOG.infof("MCP server %s (%s): %d tools", name, server.url(), specs.size());
            } catch (RuntimeException e) {
                LOG.errorf("MCP server %s (%s) could not be reached; its tools are left out: %s", name, server.url(), e.getMessage());
            }
        });
        return tools;
    }
}
