package io.conduit.runs.events;

import java.util.ArrayList;
import java.util.List;

/**
 * One run in one wire format, translated once for every client that reads it live: the run's translator, how far it
 * has read the segment, the seq of its last frame, and the frames a replay must still give after the segment is shed
 * (the run's end and the questions it asks, {@link RunEvent#kept}). Not thread-safe: {@link ThreadLog} guards it.
 */
final class Translation {

    private final RunTranslator translator;
    private final List<RunEvent> out = new ArrayList<>();
    private final List<RunEvent> kept = new ArrayList<>();
    /** Entries of the segment read so far. */
    int read;
    /** The seq of the last frame written; -1 before any. */
    long last = -1;
    /** Set when the segment was shed: the seq of the last frame written then. */
    long droppedThrough = -1;

    Translation(EventView view, RunNotice.Began began) {
        this.translator = view.translate().of(began, out::add);
    }

    /** Translates one entry and returns its frames (valid until the next call). */
    List<RunEvent> translate(Object entry, long atMillis) {
        out.clear();
        translator.on(entry, atMillis);
        read++;
        note();
        return out;
    }

    /** Brings it up to the segment's end; returns the frames that made. */
    List<RunEvent> catchUp(RunSegment s) {
        out.clear();
        s.feed(read, (entry, at) -> {
            translator.on(entry, at);
            read++;
        });
        note();
        List<RunEvent> made = List.copyOf(out);
        out.clear();
        return made;
    }

    private void note() {
        for (RunEvent e : out) {
            last = Math.max(last, e.seq());
            if (e.kept()) {
                kept.add(e);
            }
        }
    }

    List<RunEvent> kept() {
        return kept;
    }
}
