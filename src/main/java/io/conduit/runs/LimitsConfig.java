package io.conduit.runs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * What one replica accepts before it answers 429 ({@code Retry-After}) or closes a WebSocket with 4429:
 * {@code conduit.limits.*}. Request bodies are bounded by {@code conduit.api.max-body-bytes} (413).
 */
@ConfigMapping(prefix = "conduit.limits")
public interface LimitsConfig {

    /** Streaming connections open at once on this replica: classic SSE, the thread protocol's SSE and WebSockets. */
    @WithDefault("20000")
    int maxStreams();

    /**
     * Runs this replica holds at once: running ({@code conduit.runs.max-concurrent} at most) plus accepted and waiting
     * for a worker. Past it a new run is refused with 429 {@code too_many_runs} instead of waiting without bound.
     */
    @WithDefault("4096")
    int maxActiveRuns();

    /** Runs waiting (pending) on one thread behind its running one ({@code multitask_strategy: enqueue}); 429 past it. */
    @WithDefault("32")
    int maxQueuedRunsPerThread();

    /** What a 429 answers in {@code Retry-After} (whole seconds, at least 1). */
    @WithDefault("1s")
    Duration retryAfter();
}
