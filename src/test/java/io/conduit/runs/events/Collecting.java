package io.conduit.runs.events;

import java.util.List;

/** Tests' listener of a log that keeps every event it is given, live or replayed, and ignores the end. */
public final class Collecting {

    private Collecting() {
    }

    /** Adds each event, live or replayed, to {@code events}. */
    public static RunEventListener into(List<RunEvent> events) {
        return new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                events.add(event);
            }

            @Override
            public void onEnd() {
            }
        };
    }
}
