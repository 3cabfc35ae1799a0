package io.conduit.runs.events;

/**
 * Passes a run's frames on and, when the log ends the run without the frame a format ends with (a run stopped before
 * it had event numbers logs nothing at all), writes that format's end first: a client always learns the run ended.
 */
public abstract class EndGuard implements RunEventListener {

    private final RunEventListener next;
    private boolean any;
    private boolean ended;

    protected EndGuard(RunEventListener next) {
        this.next = next;
    }

    /** Whether this frame ends the run in its format. */
    protected abstract boolean ends(RunEvent e);

    /** The end to write when the log ended the run without one; {@code any}: whether any frame went before. */
    protected abstract RunEvent missingEnd(boolean any);

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
        ended |= ends(e);
    }

    @Override
    public void onEnd() {
        if (!ended) {
            next.onEvent(missingEnd(any));
        }
        next.onEnd();
    }
}
