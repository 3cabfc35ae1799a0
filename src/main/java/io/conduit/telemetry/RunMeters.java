package io.conduit.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The runs' meters, resolved once per label set and kept: a run looks its meters up when it begins and when a node
 * or a tool call ends, never per token. Names are Micrometer's dotted ones; Prometheus shows them as
 * {@code conduit_runs_total}, {@code conduit_run_duration_seconds_bucket}, and so on (docs/observability.md).
 */
final class RunMeters {

    /** Buckets of a run's, a node's and a call's duration: from a quick tool call to a long agent run. */
    static final Duration[] SLOW_BUCKETS = seconds(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600);
    /** Buckets of a first token: what a user waits for before anything moves. */
    static final Duration[] FIRST_TOKEN_BUCKETS = seconds(0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30);
    /** Past this many distinct tool names, others are counted as "other": the model may invent names. */
    private static final int MAX_TOOL_NAMES = 200;

    private final MeterRegistry registry;
    final AtomicInteger active = new AtomicInteger();
    final AtomicInteger queued = new AtomicInteger();
    private final Map<String, Counter> runs = new ConcurrentHashMap<>();
    private final Map<String, Timer> runDurations = new ConcurrentHashMap<>();
    private final Map<String, Timer> firstTokens = new ConcurrentHashMap<>();
    private final Map<String, Timer> nodes = new ConcurrentHashMap<>();
    private final Map<String, Counter> tools = new ConcurrentHashMap<>();
    private final Map<String, Timer> toolDurations = new ConcurrentHashMap<>();

    RunMeters(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("conduit.runs.active", active);
        registry.gauge("conduit.runs.queued", queued);
    }

    /** What one run uses, looked up when it begins. */
    PerGraph forGraph(String graphId) {
        return new PerGraph(graphId,
                firstTokens.computeIfAbsent(graphId, g -> Timer.builder("conduit.run.first.token")
                        .description("Time from a run's start to its first streamed token")
                        .tag("graph_id", g).serviceLevelObjectives(FIRST_TOKEN_BUCKETS).register(registry)));
    }

    void ended(String graphId, String outcome, long nanos) {
        String key = graphId + '\u0000' + outcome;
        runs.computeIfAbsent(key, k -> Counter.builder("conduit.runs").description("Runs ended, by assistant (graph) and outcome")
                .tags("graph_id", graphId, "outcome", outcome).register(registry)).increment();
        runDurations.computeIfAbsent(key, k -> Timer.builder("conduit.run.duration").description("How long runs took, start to end")
                .tags("graph_id", graphId, "outcome", outcome).serviceLevelObjectives(SLOW_BUCKETS).register(registry))
                .record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    void node(String graphId, String node, long nanos) {
        nodes.computeIfAbsent(graphId + '\u0000' + node, k -> Timer.builder("conduit.node.duration")
                .description("How long a node's task took").tags("graph_id", graphId, "node", node)
                .serviceLevelObjectives(SLOW_BUCKETS).register(registry)).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    void tool(String name, boolean failed, long nanos) {
        String tool = toolDurations.size() >= MAX_TOOL_NAMES && !toolDurations.containsKey(name) ? "other" : name;
        String outcome = failed ? "error" : "success";
        tools.computeIfAbsent(tool + '\u0000' + outcome, k -> Counter.builder("conduit.tool.calls")
                .description("Tool calls, by tool and outcome").tags("tool", tool, "outcome", outcome).register(registry)).increment();
        toolDurations.computeIfAbsent(tool, t -> Timer.builder("conduit.tool.call.duration").description("How long tool calls took")
                .tag("tool", t).serviceLevelObjectives(SLOW_BUCKETS).register(registry)).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** A run's graph and its first-token timer, resolved once per run. */
    record PerGraph(String graphId, Timer firstToken) {
    }

    static Duration[] seconds(double... s) {
        Duration[] out = new Duration[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = Duration.ofNanos((long) (s[i] * 1e9));
        }
        return out;
    }
}
