package io.conduit.tools;

import io.conduit.agent.ToolBox;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The service's tool box: tool beans, the HTTP tools of the config and MCP servers' tools, behind one executor. */
@ApplicationScoped
public class ToolBoxProducer {

    /** Made at start-up, on the start-up thread: listing MCP servers' tools blocks. */
    @Produces
    @Singleton
    @Startup
    ToolBox toolBox(Instance<Tool> beans, ToolsConfig config) {
        List<Tool> tools = new ArrayList<>();
        beans.forEach(tools::add);
        Set<String> secrets = new HashSet<>();
        if (!config.http().isEmpty()) {
            Set<String> allowed = Set.copyOf(config.httpAllowedHosts().orElse(List.of()));
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            for (Map.Entry<String, ToolsConfig.HttpToolConfig> e : config.http().entrySet()) {
                HttpTool tool = new HttpTool(e.getKey(), e.getValue(), allowed, client);
                secrets.addAll(tool.headers().values());
                tools.add(tool);
            }
        }
        tools.addAll(McpServers.tools(config.mcp()));
        return new ToolExecutor(new ToolRegistry(tools),
                new ToolExecutor.Policy(config.timeout(), config.maxAttempts(), config.retryBackoff(), config.retryMaxBackoff()),
                new Redactor(config.redact().orElse(List.of()), secrets));
    }
}
