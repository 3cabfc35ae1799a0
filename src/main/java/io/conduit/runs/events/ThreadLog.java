package io.conduit.runs.events;

import java.util.ArrayList;
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
    /** The runs this process executes or executed, and those relayed from other replicas. */
    private final LoggedRuns runs;
    private final Map<String, RunSegment> segments;
    /** Runs other replicas execute, as relayed frames ({@link #appendRemote}); never one of {@code segments}. */
    private final Map<String, RemoteRun> remote;
    private final List<ThreadEventLog.Subscription> subscribers = new CopyOnWriteArrayList<>();
    /** What the runs' entries give in each format (the logs' one maker); called under this log's lock. */
    private final SegmentFrames segmentFrames;
    /**
     * The open segment appended to last (a thread runs one run at a time): a token skips the map's lookup, a twentieth
     * of the CPU at 5,000 streams. An open segment leaves {@code segments} only through {@link #dropRun}, which forgets it.
     */
    private RunSegment appending;

    ThreadLog(String threadId, ThreadLogs owner) {
        this.threadId = threadId;
        this.owner = owner;
        this.segmentFrames = owner.frames();
        this.runs = new LoggedRuns(owner);
        this.segments = runs.segments;
        this.remote = runs.remote;
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
     * Run {@code runId}, created here, was claimed by another replica: its empty segment goes, its clients here watch
     * the thread so that the executing replica relays the run, and it is held as an empty relayed run, which the
     * request that created it may subscribe to only now (the claim's notice can come before its door's subscription).
     */
    public synchronized void executedElsewhere(String runId) {
        RunSegment s = segments.get(runId);
        if (s == null || s.size() > 0 || s.ended()) {
            return;
        }
        dropRun(runId);
        remote.putIfAbsent(runId, relayedRun(runId));
        watchFor(runId);
    }

    /**
     * Appends an entry of a run (begun with {@link #begin}) and hands its frames to the live subscribers of each format
     * that has any. The run's first entry must be its {@link RunNotice.Began}.
     */
    public synchronized void append(String runId, Object entry) {
        RunSegment s = appending;
        if (s == null || s.ended() || !s.runId.equals(runId)) {
            s = segments.get(runId);
            appending = s;
        }
        if (s == null || s.ended()) {
            return; // an event after the run's end (a late node callback): the stream is closed
        }
        long now = owner.millis();
        owner.account(s.add(entry, now));
        long read = -1; // the formats this run's subscribers read, found once a format has no translation yet
        for (int v = 0; v < s.translations.length; v++) {
            Translation t = s.translations[v];
            if (t == null && read < 0) {
                read = formatsRead(runId);
            }
            List<RunEvent> frames = t != null ? t.translate(entry, now) : (read & 1L << v) != 0 ? segmentFrames.open(s, v) : List.of();
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
            segmentFrames.shed(s);
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

    /** The run's clients here watch the thread, so that the replica executing it relays it to them. */
    private void watchFor(String runId) {
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (runId.equals(sub.runId) && !sub.watched) {
                watch(sub);
            }
        }
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
     * Run {@code runId}, executed here until now, is another replica's: kept here past its lease, it was resumed there
     * from its last checkpoint. Its segment goes (its streamed part of the step run again there would be a second,
     * abandoned answer in a replay); it is held as that replica's frames until their end, and its clients here get the
     * rest from the relay, as for {@link #executedElsewhere}. What was relayed meanwhile is read again
     * ({@link ClusterLink#movedAway}).
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
        watchFor(runId);
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
        segmentFrames.replay(s, view, afterSeq, listener);
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
        segmentFrames.replay(r, view, afterSeq, listener);
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
                segmentFrames.replay(s, view, afterSeq, listener);
            } else if (!s.ended()) {
                segmentFrames.open(s, view); // live from here: what the run wrote before is not asked for
            }
        }
        if (afterSeq != null && watch) {
            remote.values().forEach(r -> segmentFrames.replay(r, view, afterSeq, listener));
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
            segmentFrames.open(s, view);
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
        return segments.values().stream().filter(RunSegment::ended).map(s -> s.runId).toList();
    }

    /** The runs relayed from other replicas whose end has not come. */
    public synchronized List<String> openRemoteRuns() {
        return remote.values().stream().filter(r -> !r.ended()).map(r -> r.runId).toList();
    }

    public synchronized boolean holds(String runId) {
        return segments.containsKey(runId);
    }

    /** Whether the run was created here and has not begun anywhere yet: its segment is open and empty. */
    public synchronized boolean awaitsBegin(String runId) {
        RunSegment s = segments.get(runId);
        return s != null && s.size() == 0 && !s.ended();
    }

    /** The formats (a bit per view) that subscribers of the run, or of the whole thread, read. */
    private long formatsRead(String runId) {
        long read = 0;
        for (ThreadEventLog.Subscription sub : subscribers) {
            if (sub.wants(sub.view, runId)) {
                read |= 1L << sub.view;
            }
        }
        return read;
    }

    /** Whether a replay in this format still gives the run: it is open, or ended within the format's retention. */
    private boolean visible(RunSegment s, int view) {
        return !s.ended() || retained(s.endedAtMillis, view);
    }

    /** Whether a run that ended at {@code endedAtMillis} is still within the format's retention. */
    private boolean retained(long endedAtMillis, int view) {
        return endedAtMillis >= owner.millis() - owner.views().get(view).retention().toMillis();
    }

    /** Forgets runs that ended before {@code cutoffMillis}; true when the log is empty and unwatched. */
    synchronized boolean expire(long cutoffMillis) {
        return runs.expire(cutoffMillis) && subscribers.isEmpty();
    }

    /** See {@link LoggedRuns#shed}. */
    synchronized long shed(long wanted, boolean endedOnly) {
        return runs.shed(wanted, endedOnly);
    }

    synchronized long sizeForShedding() {
        return runs.bytes();
    }

    synchronized void dropRun(String runId) {
        appending = null;
        runs.drop(runId);
    }

    /** The thread is deleted: its open segments count as ended (they end nowhere else), then everything is dropped. */
    synchronized void close(long nowMillis) {
        runs.close(nowMillis);
    }
}
