package io.conduit.telemetry;

import io.conduit.llm.LlmConfig;
import io.conduit.runs.Run;
import io.conduit.runs.worker.RunObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The worker's observer: metrics, spans and the log context of every run (docs/observability.md). A run stored by a
 * request here continues that request's trace (its {@code traceparent}); a run claimed from the store without one (
 * another replica's, a recovered one) starts a trace of its own.
 */
@ApplicationScoped
public class RunTelemetry implements RunObserver {

    /** Bounds what is kept of runs stored here but run elsewhere (another replica claimed them). */
    private static final int MAX_WAITING = 100_000;

    private final RunMeters meters;
    private final RunSpans spans;
    private final RunLogContext logContext = new RunLogContext();
    /** Runs stored here and not begun yet, with the trace context of the request that stored them. */
    private final Map<String, Context> waiting = new ConcurrentHashMap<>();

    @Inject
    public RunTelemetry(MeterRegistry registry, Tracer tracer, LlmConfig llm) {
        this.meters = new RunMeters(registry);
        this.spans = new RunSpans(tracer, llm.provider().id(), llm.model().filter(m -> !m.isBlank()).orElse(llm.provider().defaultModel()));
    }

    @Override
    public void created(String runId) {
        if (waiting.size() >= MAX_WAITING) {
            waiting.clear();
            meters.queued.set(0);
        }
        if (waiting.put(runId, Context.current()) == null) {
            meters.queued.incrementAndGet();
        }
    }

    @Override
    public Watch began(Run run, String graphId) {
        Context parent = waiting.remove(run.runId());
        if (parent != null) {
            meters.queued.decrementAndGet();
        }
        meters.active.incrementAndGet();
        return new RunWatch(run, meters, meters.forGraph(graphId), spans, parent, logContext);
    }
}
