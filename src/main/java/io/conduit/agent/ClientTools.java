package io.conduit.agent;

import io.conduit.agent.port.ToolSpec;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Tools the client runs (AG-UI's front-end tools), declared per run in {@code configurable.client_tools} as
 * {@code [{name, description?, parameters?}]}: the planner binds them beside the service's tools, the executor never
 * runs them, and a turn whose planner calls one ends there (the client answers with a tool message next turn).
 */
final class ClientTools {

    static final String KEY = "client_tools";

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final String NO_PARAMETERS = "{\"type\":\"object\",\"properties\":{}}";

    private ClientTools() {
    }

    /** The declared tools as the model sees them; none when unset (checked before the run by {@link #problem}). */
    static List<ToolSpec> specs(Object value) {
        if (!(value instanceof List<?> list)) {
            return List.of();
        }
        List<ToolSpec> out = new ArrayList<>();
        for (Object o : list) {
            if (o instanceof Map<?, ?> m && m.get("name") instanceof String name) {
                String description = m.get("description") instanceof String d ? d : "";
                out.add(new ToolSpec(name, description, m.get("parameters") instanceof Map<?, ?> p ? json(p) : NO_PARAMETERS));
            }
        }
        return List.copyOf(out);
    }

    /** What is wrong with a {@code client_tools} value, or null. */
    static String problem(Object value) {
        if (!(value instanceof List<?> list)) {
            return "must be a list of {name, description?, parameters?}";
        }
        Set<String> names = new HashSet<>();
        for (Object o : list) {
            if (!(o instanceof Map<?, ?> m) || !(m.get("name") instanceof String name) || !NAME.matcher(name).matches()) {
                return "must be a list of {name, description?, parameters?} with names of 1 to 64 letters, digits, _ or -";
            }
            if (!names.add(name)) {
                return "names tool " + name + " twice";
            }
            if (m.get("description") != null && !(m.get("description") instanceof String)) {
                return "has a description that is not a string (tool " + name + ")";
            }
            if (m.get("parameters") != null && !(m.get("parameters") instanceof Map)) {
                return "has parameters that are not a JSON schema object (tool " + name + ")";
            }
        }
        return null;
    }

    private static String json(Map<?, ?> schema) {
        try {
            return JsonCodec.MAPPER.writeValueAsString(schema);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return NO_PARAMETERS;
        }
    }
}
