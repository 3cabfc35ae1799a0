package io.conduit.runs.events;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpec;
import io.conduit.runs.RunStatus;
import io.conduit.runs.StreamMode;
import io.conduit.runs.worker.RunExecutor;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A run written to its thread's log as the worker ({@link RunExecutor}) writes it: began, its events, its end. */
public final class RunFeed {

    private final ThreadLog log;
    private final Run run;
    private final long firstSeq;
    private final Set<StreamMode> modes;

    public RunFeed(ThreadLogs logs, String threadId, String runId, long firstSeq, Set<StreamMode> modes) {
        this.log = logs.begin(threadId, runId);
        this.run = new Run(runId, threadId, "a-1", RunStatus.RUNNING, Map.of(), MultitaskStrategy.REJECT, RunSpec.NONE, Instant.EPOCH,
                Instant.EPOCH, Instant.EPOCH, null);
        this.firstSeq = firstSeq;
        this.modes = modes;
    }

    public void running() {
        log.append(run.runId(), new RunNotice.Began(firstSeq, run, "agent", modes, true));
    }

    public void on(GraphEvent e) {
        log.append(run.runId(), e);
    }

    public void answered(List<String> interruptIds) {
        log.append(run.runId(), new RunNotice.Answered(interruptIds));
    }

    /** The run's recorded end; the classic stream ends with {@code end} unless it failed. */
    public void end(RunStatus status, String error) {
        log.append(run.runId(), new RunNotice.Ended(status, error, status != RunStatus.ERROR && status != RunStatus.TIMEOUT));
    }

    /** Its segment closed, as the worker closes it after the end. */
    public void close(long nowMillis) {
        log.end(run.runId(), nowMillis);
    }
}
