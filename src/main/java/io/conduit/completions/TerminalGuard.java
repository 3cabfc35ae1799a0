package io.conduit.completions;

import io.conduit.runs.RunEvent;
import io.conduit.runs.RunEventListener;

/**
 * Passes a run's answer on, and, when the log ends the run without its end (a run stopped before it had event numbers
 * logs nothing), an end of its own first: the client is always told the answer finished.
 */
final class TerminalGuard implements RunEventListener {

    private final RunEventListener next;
    private final String runId;
    private boolean terminal;

    TerminalGuard(String runId, RunEventListener next) {
        this.runId = runId;
        this.next = next;
    }

    @Override
    public void onEvent(RunEvent e) {
        terminal |= e.terminal();
        next.onEvent(e);
    }

    @Override
    public void onReplay(RunEvent e) {
        terminal |= e.terminal();
        next.onReplay(e);
    }

    @Override
    public void onEnd() {
        if (!terminal) {
            next.onEvent(new RunEvent(Long.MAX_VALUE, runId, RunReading.END, "", TokenCount.NONE));
        }
        next.onEnd();
    }
}
