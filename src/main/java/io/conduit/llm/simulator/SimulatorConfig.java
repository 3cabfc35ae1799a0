package io.conduit.llm.simulator;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/**
 * The simulated model: {@code conduit.simulator.*} (docs/simulator.md). The script, pacing, reasoning and stamps apply
 * to both ways of reaching it: the OpenAI-compatible HTTP endpoint {@code /simulator/v1}, and the in-process model
 * that {@code conduit.llm.provider=simulated} selects.
 */
@ConfigMapping(prefix = "conduit.simulator")
public interface SimulatorConfig {

    /**
     * Serve the HTTP endpoint {@code /simulator/v1} (on in dev and test, off otherwise: then it answers 404). The
     * in-process model ({@code conduit.llm.provider=simulated}) does not need it.
     */
    @WithDefault("false")
    boolean enabled();

    /** Wait before the first piece of a stream; 0 sets no timer at all. */
    @WithDefault("0s")
    Duration timeToFirstToken();

    /** Wait before each further piece of a stream; 0 sets no timer at all, so benchmarks measure the service, not a clock. */
    @WithDefault("0s")
    Duration interTokenDelay();

    /** Stream a short reasoning text ({@code delta.reasoning_content}) before each answer, as reasoning models behind vLLM do. */
    @WithDefault("false")
    boolean reasoning();

    /**
     * For latency benchmarks: each streamed text token is replaced by the time it was emitted, {@code "<epoch
     * microseconds> "} (a number and a space, taken with {@code Instant.now()} as the token leaves the model), so that
     * a client on the same machine can measure what the service adds per token. The answer is then made of stamps.
     */
    @WithDefault("false")
    boolean stampTokens();

    /** A script file; without it, the classpath resource {@code simulator/script.json}. */
    Optional<String> script();
}
