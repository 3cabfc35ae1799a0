package io.conduit.blueprints.request;

import io.conduit.agent.StructuredOutput;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A run's settings: {@link RequestConfig}'s defaults, overridden by its {@code config.configurable}. */
public record RequestSettings(int maxClarifications, StructuredOutput.Budget structuredOutput, int planningAttempts, int validationAttempts,
                              int maxPlanSteps, Duration solverTimeout, Duration httpToolTimeout, int maxAnswerChars, String model) {

    public static RequestSettings of(RequestConfig config, Map<String, Object> c) {
        List<StructuredOutput.Method> methods = config.structuredOutputMethods().stream()
                .map(m -> StructuredOutput.Method.valueOf(m.strip().toUpperCase(Locale.ROOT))).toList();
        return new RequestSettings(
                intOr(c, "max_clarifications", config.maxClarifications()),
                new StructuredOutput.Budget(methods, intOr(c, "structured_output_attempts", config.structuredOutputAttempts())),
                intOr(c, "planning_attempts", config.planningAttempts()),
                intOr(c, "validation_attempts", config.validationAttempts()),
                intOr(c, "max_plan_steps", config.maxPlanSteps()),
                c.get("solver_timeout_ms") instanceof Number n ? Duration.ofMillis(n.longValue()) : config.solverTimeout(),
                c.get("http_tool_timeout_ms") instanceof Number n ? Duration.ofMillis(n.longValue()) : config.httpToolTimeout(),
                intOr(c, "max_answer_chars", config.maxAnswerChars()),
                c.get("model") instanceof String m ? m : null);
    }

    private static int intOr(Map<String, Object> c, String key, int dflt) {
        return c.get(key) instanceof Number n ? n.intValue() : dflt;
    }

    /** The problem with an override, or null when it is fine; unknown keys are left alone (as the agent's). */
    public static String check(Map<String, Object> configurable) {
        for (Map.Entry<String, Object> e : configurable.entrySet()) {
            Object v = e.getValue();
            String problem = switch (e.getKey()) {
                case "max_clarifications" -> range(v, 0, 10);
                case "structured_output_attempts" -> range(v, 1, 5);
                case "planning_attempts", "validation_attempts" -> range(v, 1, 10);
                case "max_plan_steps" -> range(v, 1, 20);
                case "solver_timeout_ms", "http_tool_timeout_ms" -> range(v, 1, 3_600_000);
                case "max_answer_chars" -> range(v, 1, 100_000);
                case "model" -> v instanceof String s && !s.isBlank() ? null : "must be a non-empty string";
                default -> null;
            };
            if (problem != null) {
                return e.getKey() + " " + problem;
            }
        }
        return null;
    }

    private static String range(Object v, int min, int max) {
        return v instanceof Integer n && n >= min && n <= max ? null : "must be an integer from " + min + " to " + max;
    }

    /** The settings as a JSON schema, for {@code GET /assistants/{id}/schemas}. */
    public static final Map<String, Object> SCHEMA = schema();

    private static Map<String, Object> schema() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("max_clarifications", Map.of("type", "integer", "minimum", 0, "maximum", 10, "description", "Clarifying questions in a row before a best effort"));
        p.put("structured_output_attempts", Map.of("type", "integer", "minimum", 1, "maximum", 5, "description", "Attempts per structured-output method"));
        p.put("planning_attempts", Map.of("type", "integer", "minimum", 1, "maximum", 10, "description", "Plans asked for before a one-step plan"));
        p.put("validation_attempts", Map.of("type", "integer", "minimum", 1, "maximum", 10, "description", "Answers asked for before the last is kept"));
        p.put("max_plan_steps", Map.of("type", "integer", "minimum", 1, "maximum", 20));
        p.put("solver_timeout_ms", Map.of("type", "integer", "minimum", 1, "description", "Time for one solver step"));
        p.put("http_tool_timeout_ms", Map.of("type", "integer", "minimum", 1, "description", "Time for one tool call"));
        p.put("max_answer_chars", Map.of("type", "integer", "minimum", 1));
        p.put("model", Map.of("type", "string", "description", "The model for every call"));
        return Map.of("type", "object", "title", "Configurable", "properties", p);
    }
}
