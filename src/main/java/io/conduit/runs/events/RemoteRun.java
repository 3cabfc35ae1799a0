package io.conduit.runs.events;

import java.util.ArrayList;
import java.util.List;

/**
 * A run another replica executes, as this replica's log holds it: the frames of each format that replica relayed
 * (already translated there, so they are the very frames its own clients got), for replay and for this replica's
 * clients. Bounded like a segment: past {@code maxChars} only the frames a replay must give ({@link RunEvent#kept})
 * stay. Not thread-safe: {@link ThreadLog} guards it.
 */
final class RemoteRun {

    final String runId;
    private final long maxChars;
    private final List<List<RunEvent>> frames;
    private long chars;
    long endedAtMillis = -1;

    RemoteRun(String runId, int views, long maxChars) {
        this.runId = runId;
        this.maxChars = maxChars;
        this.frames = new ArrayList<>(views);
        for (int v = 0; v < views; v++) {
            frames.add(new ArrayList<>());
        }
    }

    /** Keeps a frame of one format; false when it is not past the last one kept (a relay's replay repeats frames). */
    boolean add(int view, RunEvent e) {
        List<RunEvent> list = frames.get(view);
        if (!list.isEmpty() && list.getLast().seq() >= e.seq()) {
            return false;
        }
        list.add(e);
        chars += e.length();
        if (chars > maxChars) {
            shed();
        }
        return true;
    }

    /** Whether the format has any frame of it (a relay of it began). */
    boolean has(int view) {
        return !frames.get(view).isEmpty();
    }

    List<RunEvent> frames(int view) {
        return frames.get(view);
    }

    boolean ended() {
        return endedAtMillis >= 0;
    }

    long chars() {
        return chars;
    }

    private void shed() {
        chars = 0;
        for (List<RunEvent> list : frames) {
            list.removeIf(e -> !e.kept() && list.getLast() != e);
            list.forEach(e -> chars += e.length());
        }
    }
}
