package io.conduit.runs;

import io.conduit.graph.GraphEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A run written to its thread's log as the worker ({@link RunExecutor}) writes it: began, its events, its end. */
final class RunFeed {

    private final ThreadLog log;
    private final Run run;
    private final long firstSeq;
    private final Set<StreamMode> modes;

    RunFeed(ThreadLogs logs, String threadId, String runId, long firstSeq, Set<StreamMode> modes) {
        this.log = logs.begin(threadId, runId);
        this.run = new Run(runId, threadId, "a-1", RunStatus.RUNNING, Map.of(), MultitaskStrategy.REJECT, RunSpec.NONE, Instant.EPOCH,
                Instant.EPOCH, Instant.EPOCH, null);
        this.firstSeq = firstSeq;
        this.modes = modes;
    }

    void running() {
        log.append(run.runId(), new RunNotice.Began(firstSeq, run, "agent", modes, true));
    }

    void on(GraphEvent e) {
        log.append(run.runId(), e);
    }

    void answered(List<String> interruptIds) {
        log.append(run.runId(), new RunNotice.Answered(interruptIds));
    }

    /** The run's recorded end; the classic stream ends with {@code end} unless it failed. */
    void end(RunStatus status, String error) {
        log.append(run.runId(), new RunNotice.Ended(status, error, status != RunStatus.ERROR && status != RunStatus.TIMEOUT));
    }

    /** Its segment closed, as the worker closes it after the end. */
    void close(long nowMillis) {
        log.end(run.runId(), nowMillis);
    }
}
