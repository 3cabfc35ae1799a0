package io.conduit.blueprints.request;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** The request blueprint's defaults ({@code conduit.blueprints.request.*}); a run or an assistant overrides them in {@code config.configurable}. */
@ConfigMapping(prefix = "conduit.blueprints.request")
public interface RequestConfig {

    /** Clarifying questions asked in a row before going on with a best effort. */
    @WithDefault("2")
    int maxClarifications();

    /** How a structured answer is read, in order: tool_call, json_text, extracted_json. */
    @WithDefault("tool_call,json_text,extracted_json")
    List<String> structuredOutputMethods();

    /** Attempts per structured-output method. */
    @WithDefault("2")
    int structuredOutputAttempts();

    /** Plans asked for before a one-step plan is taken. */
    @WithDefault("3")
    int planningAttempts();

    /** Answers asked for before the last one is kept as it is. */
    @WithDefault("3")
    int validationAttempts();

    /** Longest plan. */
    @WithDefault("5")
    int maxPlanSteps();

    /** The time one solver step may take, its model and tool calls included. */
    @WithDefault("60s")
    Duration solverTimeout();

    /** The time one tool call of a solver step may take (the tools' own timeouts do not apply). */
    @WithDefault("120s")
    Duration httpToolTimeout();

    /** Longest answer, in characters. */
    @WithDefault("4000")
    int maxAnswerChars();
}
