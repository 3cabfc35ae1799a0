package io.conduit.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A thread's event log: its runs' events, in seq order, run by run. Subscribing replays what a client missed and
 * then follows live, atomically, so no event is lost or repeated: the replay and the registration happen under the
 * same lock as appends.
 */
public final class ThreadEventLog {

    /** A subscription to one run ({@code runId}) or to every run of the thread ({@code runId == null}). */
    public final class Subscription {
        private final String runId;
        private final RunEventListener listener;

        private Subscription(String runId, RunEventListener listener) {
            this.runId = runId;
            this.listener = listener;
        }

        public void cancel() {
            subscribers.remove(this);
        }
    }

    final String threadId;
    private final Map<String, RunSegment> segments = new LinkedHashMap<>();
    private final List<Subscription> subscribers = new CopyOnWriteArrayList<>();
    private final RunEventLogs owner;
    private long lastSeq = -1;

    ThreadEventLog(String threadId, RunEventLogs owner) {
        this.threadId = threadId;
        this.owner = owner;
    }

    synchronized void begin(String runId, long maxBytes) {
        if (segments.putIfAbsent(runId, new RunSegment(runId, maxBytes)) == null) {
            owner.opened(1);
        }
    }

    /** Appends an event of a run (begun with {@link #begin}) and hands it to the live subscribers. */
    public synchronized void append(RunEvent e) {
        RunSegment s = segments.get(e.runId());
        if (s == null || s.ended()) {
            return; // an event after the run's end (a late node callback): the stream is closed
        }
        owner.account(-s.add(e));
        lastSeq = Math.max(lastSeq, e.seq());
        for (Subscription sub : subscribers) {
            if (sub.runId == null || sub.runId.equals(e.runId())) {
                sub.listener.onEvent(e);
            }
        }
    }

    /** Marks the run's segment ended; its run subscribers are told, thread subscribers go on. */
    public synchronized void end(String runId, long nowMillis) {
        RunSegment s = segments.get(runId);
        if (s == null || s.ended()) {
            return;
        }
        s.endedAtMillis = nowMillis;
        owner.opened(-1);
        for (Subscription sub : subscribers) {
            if (runId.equals(sub.runId)) {
                subscribers.remove(sub);
                sub.listener.onEnd();
            }
        }
    }

    /**
     * Replays the run's events after {@code afterSeq} ({@code -1}: all), then follows live until it ends. Null when
     * the log does not hold the run (unknown, or past retention): the caller answers from the checkpoints instead.
     */
    public synchronized Subscription subscribeRun(String runId, long afterSeq, RunEventListener listener) {
        RunSegment s = segments.get(runId);
        if (s == null) {
            return null;
        }
        replay(s, afterSeq, listener);
        Subscription sub = new Subscription(runId, listener);
        if (s.ended()) {
            listener.onEnd();
        } else {
            subscribers.add(sub);
        }
        return sub;
    }

    /**
     * {@link #subscribeRun}, or, when the log does not hold the run yet, a subscription that follows it once it begins
     * here: a run this process is to resume after a restart (its first life's events died with the process; its new
     * events carry new, higher seqs). {@link #giveUpWaiting} ends such a wait if the run ends elsewhere.
     */
    public synchronized Subscription followRun(String runId, long afterSeq, RunEventListener listener) {
        Subscription sub = subscribeRun(runId, afterSeq, listener);
        if (sub != null) {
            return sub;
        }
        sub = new Subscription(runId, listener);
        subscribers.add(sub);
        return sub;
    }

    /**
     * Ends a {@link #followRun} wait for a run that ended without beginning in this log (another process ran it):
     * true when the subscription was still waiting and is now cancelled; false when the run began here meanwhile and
     * the subscription follows it.
     */
    public synchronized boolean giveUpWaiting(Subscription sub) {
        if (segments.containsKey(sub.runId)) {
            return false;
        }
        subscribers.remove(sub);
        return true;
    }

    /** Replays every kept event after {@code afterSeq} (none when it is null), then follows every run live. */
    public synchronized Subscription subscribeThread(Long afterSeq, RunEventListener listener) {
        if (afterSeq != null) {
            for (RunSegment s : segments.values()) {
                replay(s, afterSeq, listener);
            }
        }
        Subscription sub = new Subscription(null, listener);
        subscribers.add(sub);
        return sub;
    }

    private void replay(RunSegment s, long afterSeq, RunEventListener listener) {
        if (s.droppedThrough > afterSeq) {
            listener.onReplay(owner.droppedNotice(s.runId, s.droppedThrough));
        }
        for (RunEvent e : s.after(afterSeq)) {
            listener.onReplay(e);
        }
    }

    /** The highest seq appended so far (the protocol's {@code applied_through_seq}); -1 before any. */
    public synchronized long lastSeq() {
        return lastSeq;
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

    synchronized boolean holds(String runId) {
        return segments.containsKey(runId);
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
        return segments.isEmpty() && subscribers.isEmpty();
    }

    /** Frees about {@code wanted} bytes from the oldest segments. */
    synchronized long shed(long wanted) {
        long freed = 0;
        for (RunSegment s : new ArrayList<>(segments.values())) {
            if (freed >= wanted) {
                break;
            }
            freed += s.shed(wanted - freed);
        }
        return freed;
    }

    synchronized long sizeForShedding() {
        long n = 0;
        for (RunSegment s : segments.values()) {
            n += s.bytes();
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
        expire(Long.MAX_VALUE);
    }
}
