package io.conduit.agui;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;

/**
 * One run's AG-UI frames for one client: from the run's start (what it did before the client subscribed is replayed),
 * then live, ended after the run's last event (RUN_FINISHED or RUN_ERROR). A run whose segment ends without one (it
 * ended before it had event numbers to translate) ends with a RUN_ERROR {@code run_stopped}, so the client is told.
 */
final class AgUiRunFollower implements RunEventListener {

    private final String runId;
    private final RunEventListener sink;
    private boolean ended;

    private AgUiRunFollower(String runId, RunEventListener sink) {
        this.runId = runId;
        this.sink = sink;
    }

    /** Feeds {@code sink} the run's frames in {@code log}'s format; returns what stops following (when the client goes). */
    static Runnable follow(ThreadEventLog log, String runId, RunEventListener sink) {
        AgUiRunFollower f = new AgUiRunFollower(runId, sink);
        ThreadEventLog.Subscription sub = log.subscribeRun(runId, -1, f);
        if (sub == null) { // the log holds the run no more: nothing will come
            f.onEnd();
            return () -> { };
        }
        return sub::cancel;
    }

    @Override
    public synchronized void onEvent(RunEvent e) {
        if (!ended) {
            sink.onEvent(e);
            endAt(e);
        }
    }

    @Override
    public synchronized void onReplay(RunEvent e) {
        if (!ended) {
            sink.onReplay(e);
            endAt(e);
        }
    }

    /** The run's segment ended: a run with no last event of its own ended before it began. */
    @Override
    public synchronized void onEnd() {
        if (!ended) {
            ended = true;
            sink.onEvent(new RunEvent(RunEvent.UNNUMBERED, runId, AgUiFrames.RUN_ERROR, "",
                    AgUiFrames.runError("run_stopped", AgUiEvents.STOPPED_BEFORE_START).toString()));
            sink.onEnd();
        }
    }

    private void endAt(RunEvent e) {
        if (AgUiFrames.RUN_FINISHED.equals(e.mode()) || AgUiFrames.RUN_ERROR.equals(e.mode())) {
            ended = true;
            sink.onEnd();
        }
    }
}
