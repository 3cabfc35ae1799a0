package io.conduit.runs;

/**
 * A subscriber of a thread's event log. Called in seq order, never concurrently for one listener, and never
 * blocking the run: a listener that cannot keep up must drop its client, not wait.
 */
public interface RunEventListener {

    void onEvent(RunEvent event);

    /** The run (or the log) ended: nothing more will come. */
    void onEnd();
}
