package io.conduit.runs.events;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A thread's one event log: its runs' entries (engine events and {@link RunNotice}s), run by run, kept as typed
 * records ({@link RunSegment}); every wire format ({@link EventView}) is translated from it when a client reads it.
 * A run is translated once per format for all its live clients ({@link Translation}); a replay translates the run
 * again from its start, which gives the same frames. Subscribing replays what a client missed and then follows live,
 * atomically: replay, registration and appends happen under one lock, so no frame is lost or repeated.
 *
 * <p>Each format numbers a run's frames from the run's first seq ({@link RunNotice.Began}); runs reserve disjoint
 * blocks of the thread's seqs, so a frame's seq names it, in its format, for the thread's whole life.
 */
public final class ThreadLog {

    final String threadId;
    private final ThreadLogs owner;
    private final Map<String, RunSegment> segments = new LinkedHashMap<>();
    /** Runs other replicas execute, as relayed frames ({@link #appendRemote}); never one of {@code segments}. */
    private final Map<String, RemoteRun> remote = new LinkedHashMap<>();
    private final List<ThreadEventLog.Subscription> subscribers = new CopyOnWriteArrayList<>();

    ThreadLog(String threadId, ThreadLogs owner) {
        this.threadId = threadId;
        this.owner = owner;
    }

    /** Opens the run's segment; false when it was open already (the run was created here). */
    synchronized boolean begin(String runId, long maxBytes) {
        if (segments.putIfAbsent(runId, new RunSegment(runId, maxBytes, owner.views().size())) == null) {
            owner.opened(1);
            owner.link().began(threadId);
            RemoteRun first = remote.get(runId);
            if (first != null && !first.ended()) {
                first.endedAtMillis = owner.millis(); // taken over here: its first life's frames expire like an ended run's
            }
            return true;
        }
        return false;
    }

    /**
     * Run {@code runId}, created here, was claimed by another replica: its segment here, opened at its creation and
     * still empty, goes, and its clients here watch the thread so that the executing replica relays the run to them.
     * It is held as a relayed run from now on, still empty: the request that created it may subscribe only now (the
     * claim's notice can come between the run's record and its door's subscription), and follows it from the relay.
     */
    public synchronized void executedElsewhere(String runId) {
        RunSegment s = segments.get(runId);
        if (s == null || s.size() > 0 || s.ended()) {
            return;
        }
        segments.remove(runId);
        owner.opened(-1);
        remote.putIfAbsent(runId, relayedRun(runId));
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (runId.equals(sub.runId) && !sub.watched) {
                watch(sub);
            }
        }
    }

    /**
     * Appends an entry of a run (begun with {@link #begin}) and hands its frames to the live subscribers of each format
     * that has any. The run's first entry must be its {@link RunNotice.Began}.
     */
    public synchronized void append(String runId, Object entry) {
        RunSegment s = segments.get(runId);
        if (s == null || s.ended()) {
            return; // an event after the run's end (a late node callback): the stream is closed
        }
        long now = owner.millis();
        owner.account(s.add(entry, now));
        for (int v = 0; v < s.translations.length; v++) {
            Translation t = s.translations[v];
            List<RunEvent> frames = t != null ? t.translate(entry, now) : interested(v, runId) ? open(s, v) : List.of();
            if (frames.isEmpty()) {
                continue;
            }
            for (ThreadEventLog.Subscription sub : subscribers) {
                if (sub.wants(v, runId)) {
                    frames.forEach(sub.listener::onEvent);
                }
            }
        }
        if (s.over()) {
            shed(s);
        }
    }

    /** Marks the run's segment ended; its run subscribers are told, thread subscribers go on. */
    public synchronized void end(String runId, long nowMillis) {
        RunSegment s = segments.get(runId);
        if (s == null || s.ended()) {
            return;
        }
        s.endedAtMillis = nowMillis;
        s.trim();
        owner.opened(-1);
        owner.link().ended(threadId, runId);
        endRunSubscriptions(runId);
    }

    private void endRunSubscriptions(String runId) {
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (runId.equals(sub.runId)) {
                subscribers.remove(sub);
                unwatch(sub);
                sub.listener.onEnd();
            }
        }
    }

    /**
     * Run {@code runId}, executed here until now, is another replica's: this process kept it past its lease and the
     * run was resumed there from its last checkpoint. Its segment goes (what it had streamed of the step that is run
     * again there would be a second, abandoned answer in a replay), and from now on the run is held as the other
     * replica's frames, open until that replica's end comes (or the run's record says it ended): the clients here that
     * follow it, of the run or of the thread, get the rest of it from that replica's relay, as a run created here and
     * claimed elsewhere ({@link #executedElsewhere}). What that replica relayed while the run was still held here was
     * not taken, so the thread's rows are read again ({@link ClusterLink#movedAway}).
     */
    public synchronized void movedAway(String runId) {
        RunSegment s = segments.get(runId);
        if (s == null || s.ended()) {
            return;
        }
        dropRun(runId);
        RemoteRun earlier = remote.remove(runId); // a life relayed here before this replica took the run over: ended
        if (earlier != null) {
            owner.account(-earlier.bytes());
        }
        remote.put(runId, relayedRun(runId));
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (runId.equals(sub.runId) && !sub.watched) {
                watch(sub);
            }
        }
        owner.link().movedAway(threadId);
    }

    /**
     * A frame of a run another replica executes, relayed through the shared exchange: kept for replay and handed to
     * the subscribers here that read its format. Ignored for a run this replica executes (its clients have its
     * frames from its own segment) and for a frame already held.
     */
    public synchronized void appendRemote(String format, RunEvent frame) {
        RunSegment s = segments.get(frame.runId());
        if (s != null && (s.size() > 0 || s.ended())) {
            return; // executed here
        }
        // an empty segment is a run created here that another replica executes: its frames can come before the
        // notice of its claim (executedElsewhere), and its subscribers here get them from the relayed run meanwhile
        int view = owner.view(format);
        RemoteRun r = remote.computeIfAbsent(frame.runId(), this::relayedRun);
        long held = r.bytes();
        if (r.ended() || !r.add(view, frame)) {
            return;
        }
        owner.account(r.bytes() - held); // counted with the segments: the total bound sheds the largest logs
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (!sub.relay && sub.wants(view, frame.runId()) && frame.seq() > sub.floor) {
                sub.listener.onEvent(frame);
            }
        }
    }

    /** A new, empty run of another replica's frames, bounded at half a run's bytes as every relayed run here is. */
    private RemoteRun relayedRun(String runId) {
        return new RemoteRun(runId, owner.views().size(), owner.maxRunBytes() / 2);
    }

    /** A run another replica executes ended there (every frame of it was relayed before this). */
    public synchronized void endRemote(String runId, long nowMillis) {
        if (segments.containsKey(runId)) {
            return;
        }
        RemoteRun r = remote.computeIfAbsent(runId, id -> new RemoteRun(id, owner.views().size(), 0));
        if (!r.ended()) {
            r.endedAtMillis = nowMillis;
            endRunSubscriptions(runId);
        }
    }

    synchronized ThreadEventLog.Subscription subscribeRun(int view, String runId, long afterSeq, RunEventListener listener) {
        RunSegment s = segments.get(runId);
        if (s == null) {
            return subscribeRemoteRun(view, runId, afterSeq, listener);
        }
        if (!visible(s, view)) {
            return null;
        }
        replay(s, view, afterSeq, listener);
        ThreadEventLog.Subscription sub = new ThreadEventLog.Subscription(this, view, runId, listener);
        if (s.ended()) {
            listener.onEnd();
        } else {
            subscribers.add(sub); // a run with no entry yet is translated from its first (append)
        }
        return sub;
    }

    synchronized ThreadEventLog.Subscription followRun(int view, String runId, long afterSeq, RunEventListener listener) {
        ThreadEventLog.Subscription sub = subscribeRun(view, runId, afterSeq, listener);
        if (sub != null) {
            return sub;
        }
        // not begun here: it begins here later (a run to resume after a restart), or executes on another replica,
        // whose frames are asked for
        sub = new ThreadEventLog.Subscription(this, view, runId, listener);
        sub.floor = afterSeq;
        subscribers.add(sub);
        watch(sub);
        return sub;
    }

    /** A run held only as another replica's frames: replayed, then followed while that replica relays it. */
    private ThreadEventLog.Subscription subscribeRemoteRun(int view, String runId, long afterSeq, RunEventListener listener) {
        RemoteRun r = remote.get(runId);
        if (r == null || r.ended() && (!r.has(view) || !retained(r.endedAtMillis, view))) {
            return null;
        }
        replay(r, view, afterSeq, listener);
        ThreadEventLog.Subscription sub = new ThreadEventLog.Subscription(this, view, runId, listener);
        sub.floor = Math.max(afterSeq, r.frames(view).isEmpty() ? -1 : r.frames(view).getLast().seq());
        if (r.ended()) {
            listener.onEnd();
        } else {
            subscribers.add(sub);
            watch(sub);
        }
        return sub;
    }

    synchronized boolean giveUpWaiting(ThreadEventLog.Subscription sub) {
        RunSegment s = segments.get(sub.runId);
        if (s != null && visible(s, sub.view) || remote.containsKey(sub.runId)) {
            return false; // followed here, or relayed from the replica that executes it (which ends it)
        }
        subscribers.remove(sub);
        unwatch(sub);
        return true;
    }

    synchronized ThreadEventLog.Subscription subscribeThread(int view, Long afterSeq, RunEventListener listener) {
        return subscribeThread(view, afterSeq, listener, true);
    }

    /** {@code watch == false}: the subscriber passes the frames to other replicas, and is no client of the other replicas' frames. */
    synchronized ThreadEventLog.Subscription subscribeThread(int view, Long afterSeq, RunEventListener listener, boolean watch) {
        for (RunSegment s : segments.values()) {
            if (afterSeq != null && visible(s, view)) {
                replay(s, view, afterSeq, listener);
            } else if (!s.ended()) {
                open(s, view); // live from here: what the run wrote before is not asked for
            }
        }
        if (afterSeq != null && watch) {
            remote.values().forEach(r -> replay(r, view, afterSeq, listener));
        }
        ThreadEventLog.Subscription sub = new ThreadEventLog.Subscription(this, view, null, listener);
        sub.floor = afterSeq == null ? -1 : afterSeq;
        subscribers.add(sub);
        if (watch) {
            watch(sub); // runs of this thread may execute on other replicas
        } else {
            sub.relay = true;
        }
        return sub;
    }

    void remove(ThreadEventLog.Subscription sub) {
        if (subscribers.remove(sub)) {
            unwatch(sub);
        }
    }

    private void watch(ThreadEventLog.Subscription sub) {
        sub.watched = true;
        owner.link().watching(threadId, owner.views().get(sub.view).name());
    }

    private void unwatch(ThreadEventLog.Subscription sub) {
        if (sub.watched) {
            sub.watched = false;
            owner.link().unwatched(threadId, owner.views().get(sub.view).name());
        }
    }


    /** The seq of the newest frame in this format (the protocol's {@code applied_through_seq}); -1 before any. */
    synchronized long lastSeq(int view) {
        List<RunSegment> newestFirst = new ArrayList<>(segments.values()).reversed();
        for (RunSegment s : newestFirst) {
            open(s, view);
            Translation t = s.translations[view];
            if (t != null && t.last >= 0) {
                return t.last;
            }
        }
        return -1;
    }

    /** The newest run whose segment is still open, or null. */
    public synchronized String activeRun() {
        String active = null;
        for (RunSegment s : segments.values()) {
            if (!s.ended()) {
                active = s.runId;
            }
        }
        return active;
    }

    /** The runs this process executed here whose segments have ended (a relay that starts late tells their ends). */
    public synchronized List<String> endedRuns() {
        List<String> ended = new ArrayList<>();
        segments.values().forEach(s -> {
            if (s.ended()) {
                ended.add(s.runId);
            }
        });
        return ended;
    }

    /** The runs relayed from other replicas whose end has not come. */
    public synchronized List<String> openRemoteRuns() {
        List<String> open = new ArrayList<>();
        remote.values().forEach(r -> {
            if (!r.ended()) {
                open.add(r.runId);
            }
        });
        return open;
    }

    public synchronized boolean holds(String runId) {
        return segments.containsKey(runId);
    }

    /**
     * A replay of the run's frames after {@code afterSeq}: from its translation as it is made, when none was; else by
     * translating the run again (the same frames); when the run was shed, the notice and the frames kept.
     */
    private void replay(RunSegment s, int view, long afterSeq, RunEventListener listener) {
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
    private void replay(RemoteRun r, int view, long afterSeq, RunEventListener listener) {
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
    private List<RunEvent> open(RunSegment s, int view) {
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

    private boolean interested(int view, String runId) {
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (sub.wants(view, runId)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a replay in this format still gives the run: it is open, or ended within the format's retention. */
    private boolean visible(RunSegment s, int view) {
        return !s.ended() || retained(s.endedAtMillis, view);
    }

    /** Whether a run that ended at {@code endedAtMillis} is still within the format's retention. */
    private boolean retained(long endedAtMillis, int view) {
        return endedAtMillis >= owner.millis() - owner.views().get(view).retention().toMillis();
    }

    /**
     * Drops the segment's entries to free memory; a replay then says what was dropped. A run in flight is first
     * translated to the end in every format (frames nobody reads are dropped), so that each goes on live; an ended
     * run is not (translating thousands of runs into every format held the sweep's event loop for seconds).
     */
    private long shed(RunSegment s) {
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

    /** Forgets segments that ended before {@code cutoffMillis}; true when the log is empty and unwatched. */
    synchronized boolean expire(long cutoffMillis) {
        segments.values().removeIf(s -> {
            boolean old = s.ended() && s.endedAtMillis < cutoffMillis;
            if (old) {
                owner.account(-s.bytes());
            }
            return old;
        });
        remote.values().removeIf(r -> {
            boolean old = r.ended() && r.endedAtMillis < cutoffMillis;
            if (old) {
                owner.account(-r.bytes());
            }
            return old;
        });
        return segments.isEmpty() && remote.isEmpty() && subscribers.isEmpty();
    }

    /**
     * Frees about {@code wanted} bytes: {@code endedOnly}, from the runs relayed from other replicas that ended and then
     * the oldest segments that ended; else from the oldest segments, in flight or not.
     */
    synchronized long shed(long wanted, boolean endedOnly) {
        long freed = 0;
        if (endedOnly) {
            for (RemoteRun r : remote.values()) {
                if (freed >= wanted) {
                    break;
                }
                if (r.ended()) {
                    long bytes = r.shed();
                    owner.account(-bytes);
                    freed += bytes;
                }
            }
        }
        for (RunSegment s : new ArrayList<>(segments.values())) {
            if (freed >= wanted) {
                break;
            }
            if (!endedOnly || s.ended()) {
                freed += shed(s);
            }
        }
        return freed;
    }

    synchronized long sizeForShedding() {
        long n = 0;
        for (RunSegment s : segments.values()) {
            n += s.bytes();
        }
        for (RemoteRun r : remote.values()) {
            n += r.bytes();
        }
        return n;
    }

    synchronized void dropRun(String runId) {
        RunSegment s = segments.remove(runId);
        if (s != null) {
            owner.account(-s.bytes());
            if (!s.ended()) {
                owner.opened(-1);
            }
        }
    }

    /** The thread is deleted: its open segments count as ended (they end nowhere else), then everything is dropped. */
    synchronized void close(long nowMillis) {
        for (RunSegment s : segments.values()) {
            if (!s.ended()) {
                s.endedAtMillis = nowMillis;
                owner.opened(-1);
            }
        }
        remote.values().forEach(r -> owner.account(-r.bytes()));
        remote.clear();
        expire(Long.MAX_VALUE);
    }
}
