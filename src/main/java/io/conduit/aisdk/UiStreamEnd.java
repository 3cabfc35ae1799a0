package io.conduit.aisdk;

import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;

/**
 * Passes a run's UI stream frames on, and when the log ends the run without its last frame (a run stopped before it
 * had event numbers logs nothing at all), ends the stream itself, with {@code abort}: {@code useChat} always learns
 * the message ended.
 */
final class UiStreamEnd implements RunEventListener {

    private final String runId;
    private final RunEventListener next;
    private boolean any;
    private boolean ended;

    UiStreamEnd(String runId, RunEventListener next) {
        this.runId = runId;
        this.next = next;
    }

    @Override
    public void onEvent(RunEvent e) {
        saw(e);
        next.onEvent(e);
    }

    @Override
    public void onReplay(RunEvent e) {
        saw(e);
        next.onReplay(e);
    }

    private void saw(RunEvent e) {
        any = true;
        ended |= UiMessageParts.END.equals(e.mode());
    }

    @Override
    public void onEnd() {
        if (!ended) {
            next.onEvent(new RunEvent(Long.MAX_VALUE, runId, UiMessageParts.END, "", (any ? "" : UiMessageParts.start(runId))
                    + "data: {\"type\":\"abort\",\"reason\":\"the run was cancelled\"}\n\ndata: [DONE]\n\n"));
        }
        next.onEnd();
    }
}
