package io.conduit.llm;

import java.time.Duration;

/** How often, and how patiently, a call that failed before any output is tried again. */
public record RetryPolicy(int maxRetries, Duration initialBackoff, Duration maxBackoff) {

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("conduit.llm.max-retries must be 0 or more, not " + maxRetries);
        }
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            maxBackoff = initialBackoff;
        }
    }

    public static RetryPolicy from(LlmConfig config) {
        return new RetryPolicy(config.maxRetries(), config.retryBackoff(), config.retryMaxBackoff());
    }
}
