package io.conduit.runs.events;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run written to its thread's log as the worker writes it (began, its engine events, its end; see {@link RunFeed}),
 * read in one wire format: what a client subscribed before it began saw live, and what a replay from its start gives.
 * For the tests of a front door's translator, outside this package.
 */
public final class ScriptedRun {

    public static final String THREAD = "t-1";
    public static final String RUN = "r-1";

    private final ThreadLogs logs;
    private final ThreadLog log;
    private final String format;
    private final Run run;
    private final long firstSeq;
    private final List<RunEvent> live = new ArrayList<>();
    private long clock = 1_795_451_320_000L;
    private boolean closed;

    /** A run in a log that keeps up to {@code maxRunBytes} of it, read in {@code view} (subscribed now). */
    public ScriptedRun(EventView view, long firstSeq, long maxRunBytes) {
        this.logs = ServiceLogs.of(Duration.ofMinutes(10), Duration.ofMinutes(2), List.of(view), maxRunBytes, 1L << 30, () -> clock++);
        this.log = logs.begin(THREAD, RUN);
        this.format = view.name();
        this.firstSeq = firstSeq;
        this.run = new Run(RUN, THREAD, "a-1", RunStatus.RUNNING, Map.of(), MultitaskStrategy.REJECT, RunSpec.NONE, Instant.EPOCH,
                Instant.EPOCH, Instant.EPOCH, null);
        logs.log(format, THREAD).subscribeRun(RUN, -1, new RunEventListener() {
            @Override
            public void onEvent(RunEvent e) {
                live.add(e);
            }

            @Override
            public void onEnd() {
                closed = true;
            }
        });
    }

    public ScriptedRun(EventView view) {
        this(view, 1L, 1L << 20);
    }

    /** The run begins executing. */
    public ScriptedRun began() {
        return entry(new RunNotice.Began(firstSeq, run, "agent", Set.of(), true));
    }

    /** The run ended before it began: numbered only to say why. */
    public ScriptedRun stoppedBeforeItBegan(String code, String message) {
        entry(new RunNotice.Began(firstSeq, run, "agent", Set.of(), false));
        entry(new RunNotice.Said(code, message));
        return close();
    }

    public ScriptedRun on(GraphEvent e) {
        return entry(e);
    }

    public ScriptedRun entry(Object entry) {
        log.append(RUN, entry);
        return this;
    }

    /**
     * The run's recorded end, as the worker logs it (a failed run's classic error first), then its segment closes;
     * {@code INTERRUPTED}: it stopped at an interrupt.
     */
    public ScriptedRun ended(RunStatus status, String error) {
        boolean failed = status == RunStatus.ERROR || status == RunStatus.TIMEOUT;
        if (failed) {
            entry(new RunNotice.Said("RunFailed", error));
        }
        entry(new RunNotice.Ended(status, error, !failed));
        return close();
    }

    /** A client cancelled the run: the classic error says so, and it ends interrupted. */
    public ScriptedRun cancelled() {
        entry(new RunNotice.Said("UserInterrupt", "the run was cancelled"));
        entry(new RunNotice.Ended(RunStatus.INTERRUPTED, null, false));
        return close();
    }

    /** Its segment closes (the worker closes it after the end). */
    public ScriptedRun close() {
        log.end(RUN, clock++);
        return this;
    }

    /** The frames a client subscribed from the start saw live. */
    public List<RunEvent> live() {
        return live;
    }

    /** Whether the live client was told the run ended. */
    public boolean closed() {
        return closed;
    }

    /** What a client subscribing now from the run's start is given (replayed), through {@code listener}. */
    public void replay(RunEventListener listener) {
        logs.log(format, THREAD).subscribeRun(RUN, -1, listener);
    }

    /** What a client subscribing now from the run's start is given. */
    public List<RunEvent> replay() {
        List<RunEvent> out = new ArrayList<>();
        replay(Collecting.into(out));
        return out;
    }

    public static GraphEvent.Tag root() {
        return new GraphEvent.Tag(RUN, THREAD, "", null, 1);
    }

    /** A task {@code node:task} of the root graph. */
    public static GraphEvent.Tag task(String node, String taskId) {
        return new GraphEvent.Tag(RUN, THREAD, "", node, 1, taskId);
    }

    /** A task {@code node:task} of the subgraph {@code ns}. */
    public static GraphEvent.Tag task(String ns, String node, String taskId) {
        return new GraphEvent.Tag(RUN, THREAD, ns, node, 1, taskId);
    }
}
