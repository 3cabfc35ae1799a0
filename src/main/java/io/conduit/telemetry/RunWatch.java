package io.conduit.telemetry;

import io.conduit.agent.message.AssistantMessage;
import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.worker.RunObserver;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One run as metrics and spans see it: the run's span, a span per node task and per model or tool call inside it
 * (from the engine's {@code ChildStarted}/{@code ChildEnded}, which the stages emit around each call), and the
 * durations they end with. A token costs one volatile read once the first has been timed.
 */
final class RunWatch implements RunObserver.Watch {

    /** A span begun and when, to end it and time it. */
    private record Open(Span span, long startNanos, String name) {
    }

    private final Run run;
    private final RunMeters meters;
    private final RunMeters.PerGraph graph;
    private final RunSpans spans;
    private final RunLogContext logContext;
    private final String graphId;
    /** Begun in {@link #within}, where the context the run starts in (its request's, if it has one) is known. */
    private volatile Span runSpan = Span.getInvalid();
    private final io.opentelemetry.context.Context stored;
    private final long startNanos = System.nanoTime();
    private final Map<String, Open> tasks = new ConcurrentHashMap<>();
    private final Map<String, Open> children = new ConcurrentHashMap<>();
    private volatile boolean firstToken;

    RunWatch(Run run, RunMeters meters, RunMeters.PerGraph graph, RunSpans spans, io.opentelemetry.context.Context stored,
             RunLogContext logContext) {
        this.run = run;
        this.graphId = graph.graphId();
        this.stored = stored;
        this.meters = meters;
        this.graph = graph;
        this.spans = spans;
        this.logContext = logContext;
    }

    @Override
    public void event(GraphEvent e) {
        if (e instanceof GraphEvent.Token) {
            if (!firstToken) {
                firstToken = true;
                graph.firstToken().record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
            return;
        }
        switch (e) {
            case GraphEvent.TaskStarted t -> {
                if (t.taskId() != null) {
                    tasks.put(t.taskId(), new Open(spans.node(runSpan, t.tag()), System.nanoTime(), t.tag().node()));
                }
            }
            case GraphEvent.TaskFinished t -> {
                Open o = t.taskId() == null ? null : tasks.remove(t.taskId());
                if (o != null) {
                    o.span().end();
                    meters.node(graph.graphId(), String.valueOf(o.name()), System.nanoTime() - o.startNanos());
                }
            }
            case GraphEvent.ChildStarted c -> {
                Open node = c.tag().taskId() == null ? null : tasks.get(c.tag().taskId());
                children.put(c.childId(), new Open(spans.child(node == null ? runSpan : node.span(), c), System.nanoTime(), c.name()));
            }
            case GraphEvent.ChildEnded c -> ended(c);
            default -> {
            }
        }
    }

    private void ended(GraphEvent.ChildEnded c) {
        Open o = children.remove(c.childId());
        if (o == null) {
            return;
        }
        if (c.output() instanceof AssistantMessage m && m.usage() != null) {
            spans.usage(o.span(), m.usage().inputTokens(), m.usage().outputTokens());
        }
        if (c.error() != null) {
            o.span().setStatus(StatusCode.ERROR, c.error());
        }
        o.span().end();
        if (RunSpans.TOOL.equals(c.kind())) {
            meters.tool(String.valueOf(c.name()), c.error() != null, System.nanoTime() - o.startNanos());
        }
    }

    @Override
    public void ended(RunStatus status) {
        meters.active.decrementAndGet();
        meters.ended(graph.graphId(), status.wire(), System.nanoTime() - startNanos);
        // a stopped run leaves its calls and tasks open: they end with it
        children.values().forEach(o -> o.span().end());
        tasks.values().forEach(o -> o.span().end());
        children.clear();
        tasks.clear();
        spans.end(runSpan, status);
    }

    @Override
    public void within(Runnable task) {
        // on the request's event-loop context when the run starts where it was asked for: its trace is current there
        io.opentelemetry.context.Context here = io.opentelemetry.context.Context.current();
        io.opentelemetry.context.Context parent = Span.fromContext(here).getSpanContext().isValid() ? here
                : stored != null ? stored : io.opentelemetry.context.Context.root();
        runSpan = spans.run(run, graphId, parent);
        logContext.within(run, graphId, runSpan, task);
    }
}
