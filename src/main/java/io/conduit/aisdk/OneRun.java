package io.conduit.aisdk;

import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;

/**
 * One run's events out of a subscription to the whole thread's protocol log (a run's protocol segment opens only when
 * the run starts, so a stream that begins with the request follows the thread and keeps its run's events). The
 * stream ends after the run's root terminal event; a run stopped before it started has none, and is ended by
 * {@link #stopped()} (from the classic log's end of the run) with a {@link UiMessageStream#STOPPED} event.
 */
final class OneRun implements RunEventListener {

    private final String runId;
    private final RunEventListener next;
    private boolean ended;

    OneRun(String runId, RunEventListener next) {
        this.runId = runId;
        this.next = next;
    }

    @Override
    public synchronized void onEvent(RunEvent e) {
        if (!ended && e.runId().equals(runId)) {
            next.onEvent(e);
            endAt(e);
        }
    }

    @Override
    public synchronized void onReplay(RunEvent e) {
        if (!ended && e.runId().equals(runId)) {
            next.onReplay(e);
            endAt(e);
        }
    }

    @Override
    public synchronized void onEnd() {
        if (!ended) {
            ended = true;
            next.onEnd();
        }
    }

    /** The run ended (its record says so): when its protocol end never came, the stream says it stopped and ends. */
    synchronized void stopped() {
        if (!ended) {
            next.onEvent(new RunEvent(0, runId, UiMessageStream.STOPPED, "", "{}"));
            onEnd();
        }
    }

    private void endAt(RunEvent e) {
        if ("lifecycle".equals(e.mode()) && e.terminal()) {
            onEnd();
        }
    }
}
