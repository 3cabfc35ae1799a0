package io.conduit.agent;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;
import java.util.Optional;

/** The default assistant: {@code conduit.agent.*}. */
@ConfigMapping(prefix = "conduit.agent")
public interface AgentConfig {

    /** Longest user message accepted, in characters. */
    @WithDefault("8000")
    int maxMessageChars();

    /** Most user messages one turn may bring. */
    @WithDefault("20")
    int maxInputMessages();

    /** Regular expressions (case-insensitive) that make ingress refuse a turn. */
    Optional<List<String>> denyPatterns();

    @WithDefault("I'm sorry, but I can't help with that request.")
    String refusal();

    /** {@code answer}: a planner answer without tool calls is final; {@code route-only}: the generator always answers. */
    @WithDefault("answer")
    PlannerMode plannerMode();

    /** Re-plans the verifier may ask for in one turn when tools return nothing or fail. */
    @WithDefault("3")
    int retryBudget();

    /** When the budget is spent: interrupt to ask the user (true), or let the generator answer with what it has. */
    @WithDefault("false")
    boolean clarifyOnFailure();

    /** Past this many (estimated) tokens of context, the summarizer folds the oldest turns into the summary. */
    @WithDefault("6000")
    int contextTokenBudget();

    /** Turns the summarizer always leaves as they are. */
    @WithDefault("2")
    int keepRecentTurns();

    @WithDefault("You are a helpful assistant. Use the tools when they help; answer concisely.")
    String systemPrompt();

    @WithDefault("25")
    int recursionLimit();
}
