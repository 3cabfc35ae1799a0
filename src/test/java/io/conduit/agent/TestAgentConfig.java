package io.conduit.agent;

import java.util.List;
import java.util.Optional;

/** An {@link AgentConfig} for tests, with the defaults of the real one and withers for what a test changes. */
record TestAgentConfig(int maxMessageChars, int maxInputMessages, Optional<List<String>> denyPatterns, String refusal,
                       PlannerMode plannerMode, int retryBudget, boolean clarifyOnFailure, int contextTokenBudget,
                       int keepRecentTurns, String systemPrompt, int recursionLimit) implements AgentConfig {

    static TestAgentConfig defaults() {
        return new TestAgentConfig(8000, 20, Optional.empty(), "I'm sorry, but I can't help with that request.", PlannerMode.ANSWER,
                3, false, 6000, 2, "You are a test assistant.", 25);
    }

    TestAgentConfig deny(String... patterns) {
        return new TestAgentConfig(maxMessageChars, maxInputMessages, Optional.of(List.of(patterns)), refusal, plannerMode,
                retryBudget, clarifyOnFailure, contextTokenBudget, keepRecentTurns, systemPrompt, recursionLimit);
    }

    TestAgentConfig routeOnly() {
        return new TestAgentConfig(maxMessageChars, maxInputMessages, denyPatterns, refusal, PlannerMode.ROUTE_ONLY,
                retryBudget, clarifyOnFailure, contextTokenBudget, keepRecentTurns, systemPrompt, recursionLimit);
    }

    TestAgentConfig retryBudget(int n) {
        return new TestAgentConfig(maxMessageChars, maxInputMessages, denyPatterns, refusal, plannerMode,
                n, clarifyOnFailure, contextTokenBudget, keepRecentTurns, systemPrompt, recursionLimit);
    }

    TestAgentConfig clarify() {
        return new TestAgentConfig(maxMessageChars, maxInputMessages, denyPatterns, refusal, plannerMode,
                retryBudget, true, contextTokenBudget, keepRecentTurns, systemPrompt, recursionLimit);
    }

    TestAgentConfig budget(int tokens, int keepTurns) {
        return new TestAgentConfig(maxMessageChars, maxInputMessages, denyPatterns, refusal, plannerMode,
                retryBudget, clarifyOnFailure, tokens, keepTurns, systemPrompt, recursionLimit);
    }

    TestAgentConfig maxChars(int n) {
        return new TestAgentConfig(n, maxInputMessages, denyPatterns, refusal, plannerMode,
                retryBudget, clarifyOnFailure, contextTokenBudget, keepRecentTurns, systemPrompt, recursionLimit);
    }
}
