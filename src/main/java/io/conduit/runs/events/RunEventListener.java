package io.conduit.runs.events;

/**
 * A subscriber of a thread's event log. Called in seq order, never concurrently for one listener, and never
 * blocking the run: a listener that cannot keep up must drop its client, not wait (see
 * {@link io.conduit.runs.delivery.Outbox}).
 */
public interface RunEventListener {

    void onEvent(RunEvent event);

    /**
     * An event the log already held when the listener subscribed (a replay after {@code Last-Event-ID}). The log keeps
     * it anyway, so a subscriber's outbox need not count it against its bounds.
     */
    default void onReplay(RunEvent event) {
        onEvent(event);
    }

    /** The run (or the log) ended: nothing more will come. */
    void onEnd();
}
