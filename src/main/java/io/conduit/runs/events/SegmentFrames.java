package io.conduit.runs.events;

import java.util.List;

/**
 * The frames a run's segment gives in each format: its translation, made when a format is first asked for and kept
 * live from then on; a replay after a seq (the translation's frames, or the run translated again from its start,
 * which gives the same frames); and the dropping of its entries to free memory, after which a replay says what went.
 * Called under the thread's log lock ({@link ThreadLog}).
 */
final class SegmentFrames {

    private final ThreadLogs owner;

    SegmentFrames(ThreadLogs owner) {
        this.owner = owner;
    }

    /**
     * A replay of the run's frames after {@code afterSeq}: from its translation as it is made, when none was; else by
     * translating the run again (the same frames); when the run was shed, the notice and the frames kept.
     */
    void replay(RunSegment s, int view, long afterSeq, RunEventListener listener) {
        Translation t = s.translations[view];
        if (t == null && s.shed) { // an ended run shed before anyone read it in this format: all of it went
            if (s.shedFromSeq >= 0 && afterSeq < s.shedFromSeq) {
                listener.onReplay(owner.views().get(view).notice().of(s.runId, s.shedFromSeq));
            }
            return;
        }
        if (t == null) {
            replay(open(s, view), afterSeq, listener);
            return;
        }
        if (s.shed) {
            if (afterSeq < t.droppedThrough) {
                listener.onReplay(owner.views().get(view).notice().of(s.runId, t.droppedThrough));
            }
            for (RunEvent e : t.kept()) {
                if (e.seq() > afterSeq) {
                    listener.onReplay(e);
                }
            }
            return;
        }
        if (afterSeq >= t.last) {
            return;
        }
        replay(fresh(s, owner.views().get(view)).catchUp(s), afterSeq, listener);
    }

    /** A replay of a relayed run's frames after {@code afterSeq}; when some were shed, first the notice that says so. */
    void replay(RemoteRun r, int view, long afterSeq, RunEventListener listener) {
        long dropped = r.droppedThrough(view);
        if (afterSeq < dropped) {
            listener.onReplay(owner.views().get(view).notice().of(r.runId, dropped));
        }
        replay(r.frames(view), afterSeq, listener);
    }

    private static void replay(List<RunEvent> frames, long afterSeq, RunEventListener listener) {
        for (RunEvent e : frames) {
            if (e.seq() > afterSeq) {
                listener.onReplay(e);
            }
        }
    }

    /**
     * Gives the run a translation in this format if it has none (and an entry to start from), brought to the
     * segment's end; returns the frames that made. An existing translation is always at the end: nothing to make.
     */
    List<RunEvent> open(RunSegment s, int view) {
        if (s.translations[view] != null || s.size() == 0) {
            return List.of();
        }
        s.translations[view] = fresh(s, owner.views().get(view));
        return s.translations[view] == null ? List.of() : s.translations[view].catchUp(s);
    }

    /** A translation of the run from its first entry, its {@link RunNotice.Began}; null when it did not begin so. */
    private static Translation fresh(RunSegment s, EventView view) {
        return s.first() instanceof RunNotice.Began began ? new Translation(view, began) : null;
    }

    /**
     * Drops the segment's entries to free memory; a replay then says what was dropped. A run in flight is first
     * translated to the end in every format (frames nobody reads are dropped), so that each goes on live; an ended
     * run is not (translating thousands of runs into every format held the sweep's event loop for seconds).
     */
    long shed(RunSegment s) {
        if (s.shed || s.size() == 0) {
            return 0;
        }
        for (int v = 0; v < s.translations.length; v++) {
            if (!s.ended()) {
                open(s, v);
            }
            Translation t = s.translations[v];
            if (t != null) {
                t.droppedThrough = t.last;
            }
        }
        long freed = s.drop();
        owner.account(-freed);
        return freed;
    }
}
