package io.conduit.runs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** How runs are executed and their streams kept: {@code conduit.runs.*}. */
@ConfigMapping(prefix = "conduit.runs")
public interface ServingConfig {

    /** Longest a run may take; past it the run stops with status {@code timeout}. {@code 0s}: no limit. */
    @WithDefault("1h")
    Duration timeout();

    /** How long a finished run's events stay replayable ({@code GET .../runs/{id}/stream} with {@code Last-Event-ID}). */
    @WithDefault("10m")
    Duration streamRetention();

    /**
     * How long a finished run's thread-protocol events stay replayable (a WebSocket or SSE client of
     * {@code /threads/{id}/stream/events} that reconnects replays them; the SDK retries for about 22 s). A thread's log
     * keeps a run's entries for the longest retention of its formats; its memory is bounded by {@code max-run-log-bytes}
     * per run and {@code max-log-bytes} in total, whatever the format.
     */
    @WithDefault("2m")
    Duration protocolRetention();

    /** Most bytes one run's event log keeps; past it the oldest events are dropped (the end is always kept). */
    @WithDefault("8388608")
    long maxRunLogBytes();

    /** Most bytes the threads' event logs keep together; never more than an eighth of the heap. */
    @WithDefault("268435456")
    long maxLogBytes();

    /** Runs one process executes at once; more wait, pending, in the run store. */
    @WithDefault("256")
    int maxConcurrent();

    /** How often an idle SSE stream sends a {@code : heartbeat} comment, so proxies and clients know it is alive. */
    @WithDefault("10s")
    Duration heartbeat();

    /**
     * How long a run stays held by a worker that stopped renewing its hold (every third of this): past it the worker
     * is taken for a dead process and its running runs are resumed, from their checkpoints, by a live one. Also how
     * soon a run whose process was killed is resumed.
     */
    @WithDefault("30s")
    Duration lease();

    /** How often the worker looks for runs created elsewhere or delayed ({@code after_seconds}). */
    @WithDefault("1s")
    Duration pollInterval();

    /**
     * When the replica shuts down (SIGTERM), how long a run may go on to the end of the step it is in before it is
     * handed back anyway: a run handed back at a step boundary resumes elsewhere without repeating anything its clients
     * saw; one cut mid-step runs that step again. Keep it below {@code quarkus.shutdown.timeout}, which bounds the drain.
     */
    @WithDefault("10s")
    Duration drainStepWait();
}
