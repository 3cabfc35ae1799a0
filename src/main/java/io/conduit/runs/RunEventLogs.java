package io.conduit.runs;

import java.time.Duration;

/**
 * The threads' logs as the Agent Server's classic stream reads them ({@link LangGraphEvents}): {@code metadata},
 * {@code values}, {@code messages}, ... and {@code end}. A view of {@link ThreadLogs}, whose entries the thread
 * protocol's view ({@link ProtocolEventLogs}) reads too.
 */
public final class RunEventLogs {

    static final String NAME = "classic";

    /** The classic log's notice: an SSE {@code error} event. */
    static final EventView.DroppedNotice CLASSIC_NOTICE = (runId, through) -> new RunEvent(through, runId, "error", "",
            "{\"error\":\"EventsDropped\",\"message\":\"the events of run " + runId + " up to " + through
                    + " were dropped to bound memory; read the run's state instead\"}");

    private final ThreadLogs logs;
    private final int view;

    public RunEventLogs(ThreadLogs logs) {
        this.logs = logs;
        this.view = logs.view(NAME);
    }

    /** The classic stream's format, its frames replayed for {@code retention} after their run's end. */
    static EventView view(Duration retention) {
        return new EventView(NAME, (began, sink) -> new LangGraphEvents(sink, began), CLASSIC_NOTICE, retention);
    }

    /** The logs of every format. */
    public ThreadLogs entries() {
        return logs;
    }

    public ThreadEventLog log(String threadId) {
        return new ThreadEventLog(logs.log(threadId), view);
    }

    /** The thread's log if this process holds one. */
    public ThreadEventLog find(String threadId) {
        ThreadLog log = logs.find(threadId);
        return log == null ? null : new ThreadEventLog(log, view);
    }

    /** Runs this process holds and has not seen end (see {@link ThreadLogs#openRuns}). */
    public int openRuns() {
        return logs.openRuns();
    }
}
