package io.conduit.agent;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import io.conduit.agent.port.ToolSpec;

/**
 * The assistant's settings for one run: the service's {@link AgentConfig}, overridden by the run's
 * {@code config.configurable} (an assistant's configuration, then the run's own). {@link #SCHEMA} lists what may be
 * overridden; {@link #check} refuses anything else before a run or an assistant is stored.
 */
public record AgentSettings(String systemPrompt, String model, Set<String> tools, int retryBudget, PlannerMode plannerMode,
                            boolean clarifyOnFailure, List<ToolSpec> clientTools) {

    /** The overridable settings as a JSON schema ({@code GET /assistants/{id}/schemas}, {@code config_schema}). */
    public static final Map<String, Object> SCHEMA = schema();

    public static AgentSettings of(AgentConfig config, Map<String, Object> configurable) {
        Map<String, Object> c = configurable == null ? Map.of() : configurable;
        return new AgentSettings(
                c.get("system_prompt") instanceof String s ? s : config.systemPrompt(),
                c.get("model") instanceof String m ? m : null,
                c.get("tools") instanceof List<?> l ? Set.copyOf(l.stream().map(String::valueOf).toList()) : null,
                c.get("retry_budget") instanceof Number n ? n.intValue() : config.retryBudget(),
                "route-only".equals(c.get("planner_mode")) ? PlannerMode.ROUTE_ONLY
                        : "answer".equals(c.get("planner_mode")) ? PlannerMode.ANSWER : config.plannerMode(),
                c.get("clarify_on_failure") instanceof Boolean b ? b : config.clarifyOnFailure(),
                ClientTools.specs(c.get(ClientTools.KEY)));
    }

    /** Whether the tool is one the client runs (declared in {@code client_tools}), not the service. */
    public boolean isClientTool(String tool) {
        return clientTools.stream().anyMatch(t -> t.name().equals(tool));
    }

    /** Whether the run may use this tool ({@code tools} unset: every tool). */
    public boolean allows(String tool) {
        return tools == null || tools.contains(tool);
    }

    /** The problem with an override, or null when {@code configurable} is fine. Unknown keys are left alone. */
    public static String check(Map<String, Object> configurable) {
        for (Map.Entry<String, Object> e : configurable.entrySet()) {
            Object v = e.getValue();
            String problem = switch (e.getKey()) {
                case "system_prompt", "model" -> v instanceof String s && !s.isBlank() && s.length() <= 100_000 ? null : "must be a non-empty string";
                case "tools" -> v instanceof List<?> l && l.stream().allMatch(x -> x instanceof String) ? null : "must be a list of tool names";
                case "retry_budget" -> v instanceof Integer n && n >= 0 && n <= 20 ? null : "must be an integer from 0 to 20";
                case "planner_mode" -> "answer".equals(v) || "route-only".equals(v) ? null : "must be answer or route-only";
                case "clarify_on_failure" -> v instanceof Boolean ? null : "must be true or false";
                case ClientTools.KEY -> ClientTools.problem(v);
                default -> null;
            };
            if (problem != null) {
                return e.getKey() + " " + problem;
            }
        }
        return null;
    }

    private static Map<String, Object> schema() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("system_prompt", Map.of("type", "string", "description", "The assistant's instructions"));
        props.put("model", Map.of("type", "string", "description", "The model for the planner and the generator"));
        props.put("tools", Map.of("type", "array", "items", Map.of("type", "string"), "description", "The tools the assistant may call (unset: all)"));
        props.put("retry_budget", Map.of("type", "integer", "minimum", 0, "maximum", 20, "description", "Re-plans per turn after empty or failed tool results"));
        props.put("planner_mode", Map.of("type", "string", "enum", List.of("answer", "route-only")));
        props.put("clarify_on_failure", Map.of("type", "boolean", "description", "Past the budget, interrupt to ask the user"));
        props.put(ClientTools.KEY, Map.of("type", "array", "items", Map.of("type", "object"),
                "description", "Tools the client runs ({name, description?, parameters?}): the planner may call them; the turn then ends, and the next one brings the result as a tool message"));
        props.put("user_id", Map.of("type", "string", "description", "The user of the run (long-term memory is per user)"));
        return Map.of("type", "object", "title", "Configurable", "properties", props);
    }
}
