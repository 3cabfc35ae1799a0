package io.conduit.llm;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** The model the agent talks to: {@code conduit.llm.*}. */
@ConfigMapping(prefix = "conduit.llm")
public interface LlmConfig {

    /** {@code openai} (any OpenAI-compatible server) or {@code mistral}. */
    @WithDefault("openai")
    LlmProvider provider();

    /** The provider's API root, e.g. {@code http://localhost:8000/v1} for vLLM; unset: the provider's public API. */
    Optional<String> baseUrl();

    Optional<String> apiKey();

    /** Unset: the provider's default (see {@link LlmProvider#defaultModel()}). */
    Optional<String> model();

    /** Unset: the server's default (some reasoning models refuse a temperature). */
    Optional<Double> temperature();

    /** Connect and read timeout; also the longest silence tolerated in the middle of a stream. */
    @WithDefault("60s")
    Duration timeout();

    /** Retries of a call that failed before any output (429, 5xx, connection errors). */
    @WithDefault("2")
    int maxRetries();

    /** First pause before a retry; it doubles on each further retry, with jitter. */
    @WithDefault("500ms")
    Duration retryBackoff();

    @WithDefault("10s")
    Duration retryMaxBackoff();

    Summarizer summarizer();

    /** USD per million tokens, by model name; a model not listed costs 0. */
    Map<String, Price> prices();

    interface Summarizer {
        /** A cheaper model for {@code ModelRole.SUMMARIZER}; unset: the main model. */
        Optional<String> model();
    }

    interface Price {
        @WithName("input-per-million")
        @WithDefault("0")
        double inputPerMillion();

        @WithName("output-per-million")
        @WithDefault("0")
        double outputPerMillion();
    }
}
