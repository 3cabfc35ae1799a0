package io.conduit.llm.simulator;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** The built-in OpenAI-compatible simulator: {@code conduit.simulator.*} (docs/simulator.md). */
@ConfigMapping(prefix = "conduit.simulator")
public interface SimulatorConfig {

    /** Serve {@code /simulator/v1} (on in dev and test, off otherwise: then it answers 404). */
    @WithDefault("false")
    boolean enabled();

    /** Wait before the first chunk of a stream; 0 sets no timer at all. */
    @WithDefault("0s")
    Duration timeToFirstToken();

    /** Wait before each further chunk of a stream; 0 sets no timer at all, so benchmarks measure the service, not a clock. */
    @WithDefault("0s")
    Duration interTokenDelay();

    /** Stream a short {@code delta.reasoning_content} before each answer, as reasoning models behind vLLM do. */
    @WithDefault("false")
    boolean reasoning();

    /** A script file; without it, the classpath resource {@code simulator/script.json}. */
    Optional<String> script();
}
