package io.conduit.tools;

import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every tool of the service, by name: the {@link Tool} beans, the HTTP tools declared in config and the tools of the
 * configured MCP servers. Built at start-up ({@link Startup}, on the start-up thread: listing MCP servers' tools
 * blocks), so that two tools with one name, a bad argument schema or an HTTP tool aimed at a host that is not allowed
 * stop the service before it takes traffic.
 */
@ApplicationScoped
@Startup
public class ToolRegistry {

    /** A tool and its compiled argument schema. */
    record Entry(Tool tool, ArgumentSchema schema) {
    }

    private final Map<String, Entry> tools = new LinkedHashMap<>();
    private final AutoCloseable connections;

    @Inject
    public ToolRegistry(Instance<Tool> beans, ToolsConfig config) {
        List<Tool> all = new ArrayList<>();
        beans.forEach(all::add);
        ReachableAddresses addresses = ReachableAddresses.publicAnd(config.privateAddresses().orElse(List.of()));
        all.addAll(httpTools(config, addresses));
        McpServers mcp = McpServers.connect(config.mcp(), config.timeout(), addresses);
        all.addAll(mcp.tools());
        this.connections = mcp;
        try {
            register(all);
        } catch (RuntimeException e) {
            mcp.close();
            throw e;
        }
    }

    /** Just these tools, for tests and embedding. */
    public ToolRegistry(Collection<? extends Tool> tools) {
        this.connections = () -> { };
        register(tools);
    }

    public Entry get(String name) {
        return tools.get(name);
    }

    public List<Entry> all() {
        return List.copyOf(tools.values());
    }

    /** Every secret value the tools hold, to be redacted from their outcomes. */
    public Set<String> secrets() {
        Set<String> secrets = new LinkedHashSet<>();
        tools.values().forEach(e -> secrets.addAll(e.tool().secrets()));
        return secrets;
    }

    @PreDestroy
    void disconnect() throws Exception {
        connections.close();
    }

    private void register(Collection<? extends Tool> all) {
        for (Tool tool : all) {
            if (tools.containsKey(tool.name())) {
                throw new IllegalStateException("two tools are named " + tool.name() + "; tool names must be unique");
            }
            tools.put(tool.name(), new Entry(tool, new ArgumentSchema(tool.name(), tool.parametersSchema(), tool.injected())));
        }
    }

    private static List<Tool> httpTools(ToolsConfig config, ReachableAddresses addresses) {
        if (config.http().isEmpty()) {
            return List.of();
        }
        List<String> allowed = config.httpAllowedHosts().orElse(List.of());
        // redirects are never followed: the allow-list is checked on the URL we build, and a redirect would bypass it
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        List<Tool> tools = new ArrayList<>();
        config.http().forEach((name, http) -> tools.add(new HttpTool(name, http, allowed, addresses, client, config.timeout())));
        return tools;
    }
}
