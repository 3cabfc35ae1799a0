package io.conduit.api;

import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;

/**
 * A classic join's listener: a run's stream ends with its {@code end} (or its {@code error}). A run another replica
 * executed can end here without them: its last frames were lost on the way and its record said it finished
 * ({@code RelayedRunEnds}). The join then ends as one past the retention does, with the thread's final values and
 * the end ({@code orElse}), not with a stream that just stops.
 */
final class JoinEnd implements RunEventListener {

    private final RunEventListener client;
    private final Runnable orElse;
    private boolean told;

    JoinEnd(RunEventListener client, Runnable orElse) {
        this.client = client;
        this.orElse = orElse;
    }

    @Override
    public void onEvent(RunEvent event) {
        told |= ends(event);
        client.onEvent(event);
    }

    @Override
    public void onReplay(RunEvent event) {
        told |= ends(event);
        client.onReplay(event);
    }

    @Override
    public void onEnd() {
        if (told) {
            client.onEnd();
        } else {
            orElse.run();
        }
    }

    /** The run's {@code end} or its {@code error}; not the notice that a replay's first events were dropped. */
    private static boolean ends(RunEvent event) {
        return "end".equals(event.mode()) || "error".equals(event.mode()) && !RunEventLogs.droppedNotice(event);
    }
}
