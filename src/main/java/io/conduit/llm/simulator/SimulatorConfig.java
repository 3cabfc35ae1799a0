package io.conduit.llm.simulator;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The built-in OpenAI-compatible simulator: {@code conduit.simulator.*}. */
@ConfigMapping(prefix = "conduit.simulator")
public interface SimulatorConfig {

    /** Serve {@code /simulator/v1} (on in dev and test, off otherwise). */
    @WithDefault("false")
    boolean enabled();

    /** Wait before the first chunk; 0 sets no timer at all. */
    @WithDefault("0s")
    Duration timeToFirstToken();

    /** Wait between chunks; 0 sets no timer at all. */
    @WithDefault("0s")
    Duration interTokenDelay();

    /** Stream a short {@code delta.reasoning_content} before each answer, as reasoning models served by vLLM do. */
    @WithDefault("false")
    boolean reasoning();

    /** A JSON script file; without it, the classpath resource {@code simulator/script.json}. */
    Optional<String> script();
}
