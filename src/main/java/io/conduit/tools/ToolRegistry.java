package io.conduit.tools;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Every tool of the service, by name: beans, HTTP tools declared in config, MCP servers' tools. */
public final class ToolRegistry {

    private final Map<String, Tool> tools = new LinkedHashMap<>();

    public ToolRegistry(Collection<? extends Tool> all) {
        for (Tool t : all) {
            if (tools.putIfAbsent(t.name(), t) != null) {
                throw new IllegalStateException("two tools are named " + t.name() + "; tool names must be unique");
            }
        }
    }

    public Tool get(String name) {
        return tools.get(name);
    }

    public List<Tool> all() {
        return List.copyOf(tools.values());
    }
}
