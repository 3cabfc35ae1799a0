package io.conduit.http.answer;

import io.conduit.runs.events.EndGuard;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;

/** A run's answer ends, with an end of its own when the log ended the run without one: the client is always told. */
public final class TerminalGuard extends EndGuard {

    private final String runId;

    public TerminalGuard(String runId, RunEventListener next) {
        super(next);
        this.runId = runId;
    }

    @Override
    protected boolean ends(RunEvent e) {
        return e.terminal();
    }

    @Override
    protected RunEvent missingEnd(boolean any) {
        return new RunEvent(Long.MAX_VALUE, runId, RunReading.END, "", TokenCount.NONE);
    }
}
