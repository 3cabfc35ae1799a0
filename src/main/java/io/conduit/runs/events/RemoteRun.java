package io.conduit.runs.events;

import java.util.ArrayList;
import java.util.List;

/**
 * A run another replica executes, as this replica's log holds it: the frames of each format that replica relayed
 * (already translated there, so they are the very frames its own clients got), for replay and for this replica's
 * clients. Bounded like a segment: past {@code maxChars}, or when the logs' total bound sheds it, only the frames a
 * replay must give ({@link RunEvent#kept}) stay, and a replay says what was dropped. Not thread-safe: {@link ThreadLog}
 * guards it.
 */
final class RemoteRun {

    final String runId;
    private final long maxChars;
    private final List<List<RunEvent>> frames;
    /** Per format, the seq of the last frame dropped to bound memory; -1 while none was. */
    private final long[] droppedThrough;
    private long chars;
    long endedAtMillis = -1;

    RemoteRun(String runId, int views, long maxChars) {
        this.runId = runId;
        this.maxChars = maxChars;
        this.frames = new ArrayList<>(views);
        this.droppedThrough = new long[views];
        for (int v = 0; v < views; v++) {
            frames.add(new ArrayList<>());
            droppedThrough[v] = -1;
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

    /** What it holds as the logs' bound counts it: its frames' characters, two bytes each. */
    long bytes() {
        return 2 * chars;
    }

    /** The seq through which frames of the format were dropped ({@link #shed}), for a replay's notice; -1 if none. */
    long droppedThrough(int view) {
        return droppedThrough[view];
    }

    /** Drops every frame a replay need not give (it says what went instead); returns the bytes freed. */
    long shed() {
        long before = bytes();
        chars = 0;
        for (int v = 0; v < frames.size(); v++) {
            int view = v;
            List<RunEvent> list = frames.get(v);
            RunEvent last = list.isEmpty() ? null : list.getLast();
            list.removeIf(e -> {
                boolean drop = !e.kept() && e != last;
                if (drop) {
                    droppedThrough[view] = Math.max(droppedThrough[view], e.seq());
                }
                return drop;
            });
            list.forEach(e -> chars += e.length());
        }
        return before - bytes();
    }
}
