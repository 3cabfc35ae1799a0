package io.conduit.llm;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The model the agent talks to: {@code conduit.llm.*}. With no key and no base URL, dev mode uses the simulated model
 * in-process and test mode the simulator's HTTP endpoint (one WARN line either way); a packaged app (prod) refuses to
 * start unless a key, a base URL or {@code provider=simulated} is set ({@link LlmEndpoint#resolve}).
 */
@ConfigMapping(prefix = "conduit.llm")
public interface LlmConfig {

    /**
     * {@code openai} (any OpenAI-compatible server), {@code mistral}, or {@code simulated}: the scripted model inside
     * the JVM, no key and no HTTP ({@code conduit.simulator.*} sets its script and pacing; docs/simulator.md).
     */
    @WithDefault("openai")
    LlmProvider provider();

    /** The provider's API root, e.g. {@code http://localhost:8000/v1} for vLLM; unset: the provider's public API. */
    Optional<String> baseUrl();

    /** The provider's API key ({@code OPENAI_API_KEY} by default); unset with a base URL: a placeholder is sent. */
    Optional<String> apiKey();

    /**
     * Unset: the provider's default (see {@link LlmProvider#defaultModel()}). For {@code simulated}, only the name
     * responses report (and prices are looked up by).
     */
    Optional<String> model();

    /** Unset: the server's default (some reasoning models refuse a temperature). */
    Optional<Double> temperature();

    /**
     * Whether the model reads images attached to user messages (sent as image parts); false: each becomes a note in
     * the message's text instead (a text-only model would refuse the request).
     */
    @WithDefault("true")
    boolean acceptsImages();

    /** Connect and read timeout; also the longest silence tolerated in the middle of a stream. */
    @WithDefault("60s")
    Duration timeout();

    /** Retries of a call that failed before any output (429, 5xx, connection errors). */
    @WithDefault("2")
    int maxRetries();

    /** First pause before a retry; it doubles on each further retry, with jitter. */
    @WithDefault("500ms")
    Duration retryBackoff();

    /** The longest pause between two retries, however often the pause doubled. */
    @WithDefault("10s")
    Duration retryMaxBackoff();

    /** The model for summaries of long conversations. */
    Summarizer summarizer();

    /** USD per million tokens, by model name; a model not listed costs 0. */
    Map<String, Price> prices();

    interface Summarizer {
        /** A cheaper model for {@code ModelRole.SUMMARIZER}; unset: the main model. */
        Optional<String> model();
    }

    interface Price {
        /** USD per million input (prompt) tokens. */
        @WithName("input-per-million")
        @WithDefault("0")
        double inputPerMillion();

        /** USD per million output (completion) tokens. */
        @WithName("output-per-million")
        @WithDefault("0")
        double outputPerMillion();
    }
}
