package io.conduit.aisdk;

import io.conduit.runs.events.EndGuard;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;

/** A run's UI stream ends, with {@code abort} when the log ended it without its end: {@code useChat} always learns it. */
final class UiStreamEnd extends EndGuard {

    private final String runId;

    UiStreamEnd(String runId, RunEventListener next) {
        super(next);
        this.runId = runId;
    }

    @Override
    protected boolean ends(RunEvent e) {
        return UiMessageParts.END.equals(e.mode());
    }

    @Override
    protected RunEvent missingEnd(boolean any) {
        return new RunEvent(Long.MAX_VALUE, runId, UiMessageParts.END, "", (any ? "" : UiMessageParts.start(runId))
                + "data: {\"type\":\"abort\",\"reason\":\"the run was cancelled\"}\n\ndata: [DONE]\n\n");
    }
}
