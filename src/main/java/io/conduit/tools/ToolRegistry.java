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
import java.util.Comparator;
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
 *
 * <p>Argument schemas: every tool's must be JSON and an object schema. The schemas that come from outside the code
 * (HTTP tools in config, MCP servers' tools) are also checked against the JSON Schema meta-schema here, at every start.
 * The schemas written in the code are the same at every start: they are checked in the tests (a Java assertion,
 * on in the tests and off in the service, where it would cost a sixth of a start-up), not at every start.
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
        List<Tool> code = new ArrayList<>();
        beans.forEach(code::add);
        // the container's order of beans may change from one build to the next; the model is shown the tools in
        // this order, and a prompt that changes with each build loses the provider's prompt cache
        code.sort(Comparator.comparing(Tool::name));
        ReachableAddresses addresses = ReachableAddresses.publicAnd(config.privateAddresses().orElse(List.of()));
        List<Tool> operators = new ArrayList<>(httpTools(config, addresses));
        McpServers mcp = McpServers.connect(config.mcp(), config.timeout(), addresses);
        operators.addAll(mcp.tools());
        this.connections = mcp;
        try {
            register(code, false);
            register(operators, true);
        } catch (RuntimeException e) {
            mcp.close();
            throw e;
        }
    }

    /** Just these tools, written in the code (their schemas are checked in the tests), for blueprints and tests. */
    public ToolRegistry(Collection<? extends Tool> tools) {
        this(tools, List.of());
    }

    /** Tools written in the code, then tools whose schemas come from outside it (checked here, always). */
    ToolRegistry(Collection<? extends Tool> code, Collection<? extends Tool> operators) {
        this.connections = () -> { };
        register(code, false);
        register(operators, true);
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

    private void register(Collection<? extends Tool> all, boolean fromOutsideTheCode) {
        for (Tool tool : all) {
            if (tools.containsKey(tool.name())) {
                throw new IllegalStateException("two tools are named " + tool.name() + "; tool names must be unique");
            }
            ArgumentSchema schema = new ArgumentSchema(tool.name(), tool.parametersSchema(), tool.injected());
            if (fromOutsideTheCode) {
                schema.checkAgainstMetaSchema();
            } else {
                // in the tests (-ea): a schema written in the code is the same at every start, so checked there
                assert schema.checkAgainstMetaSchema() != null;
            }
            tools.put(tool.name(), new Entry(tool, schema));
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
