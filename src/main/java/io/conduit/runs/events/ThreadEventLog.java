package io.conduit.runs.events;

import io.conduit.api.RunEventLogs;
import io.conduit.stream.ProtocolEventLogs;

/**
 * A thread's log ({@link ThreadLog}) as one wire format reads it: its frames, replayed then live. What transports
 * subscribe to: the classic stream's ({@link RunEventLogs}) or the thread protocol's ({@link ProtocolEventLogs}).
 */
public final class ThreadEventLog {

    /** A subscription to one run ({@code runId}) or to every run of the thread ({@code runId == null}). */
    public static final class Subscription {
        private final ThreadLog log;
        final int view;
        final String runId;
        final RunEventListener listener;
        /** Whether the cluster was told a client here reads the thread (told once it is gone); guarded by the log. */
        boolean watched;
        /** Whether it relays this replica's runs to the others (it gets none of theirs). */
        boolean relay;
        /** The seq it had (a {@code Last-Event-ID}, a {@code since}): relayed frames up to it are not sent again. */
        long floor = -1;

        Subscription(ThreadLog log, int view, String runId, RunEventListener listener) {
            this.log = log;
            this.view = view;
            this.runId = runId;
            this.listener = listener;
        }

        public void cancel() {
            log.remove(this);
        }

        /**
         * Relayed frames up to {@code seq} are not handed to it from now on: its client has them (a later
         * {@code since} on a connection that follows the thread already). Called under the log's lock.
         */
        public void skipRelayedThrough(long seq) {
            floor = Math.max(floor, seq);
        }

        /** Whether it reads this format of this run. */
        boolean wants(int format, String run) {
            return view == format && (runId == null || runId.equals(run));
        }
    }

    private final ThreadLog log;
    private final int view;

    ThreadEventLog(ThreadLog log, int view) {
        this.log = log;
        this.view = view;
    }

    /**
     * The log of every format: also the lock that subscribing and appending take, which a caller holds to write
     * something before any live frame (an answer before its subscription's replay).
     */
    public ThreadLog entries() {
        return log;
    }

    /**
     * Replays the run's frames after {@code afterSeq} ({@code -1}: all), then follows live until it ends. Null when
     * the log does not hold the run (unknown, or past retention): the caller answers from the checkpoints instead.
     */
    public Subscription subscribeRun(String runId, long afterSeq, RunEventListener listener) {
        return log.subscribeRun(view, runId, afterSeq, listener);
    }

    /**
     * {@link #subscribeRun}, or, when the log does not hold the run yet, a subscription that follows it once it begins
     * here: a run this process is to resume after a restart (its first life's events died with the process; its new
     * events carry new, higher seqs). {@link #giveUpWaiting} ends such a wait if the run ends elsewhere.
     */
    public Subscription followRun(String runId, long afterSeq, RunEventListener listener) {
        return log.followRun(view, runId, afterSeq, listener);
    }

    /**
     * Ends a {@link #followRun} wait for a run that ended without beginning in this log (another process ran it):
     * true when the subscription was still waiting and is now cancelled; false when the run began here meanwhile and
     * the subscription follows it.
     */
    public boolean giveUpWaiting(Subscription sub) {
        return log.giveUpWaiting(sub);
    }

    /** Replays every kept frame after {@code afterSeq} (none when it is null), then follows every run live. */
    public Subscription subscribeThread(Long afterSeq, RunEventListener listener) {
        return log.subscribeThread(view, afterSeq, listener);
    }

    /**
     * {@link #subscribeThread} for a relay to other replicas: only the runs executed here (not those relayed from
     * elsewhere), and no watch of the other replicas' frames.
     */
    public Subscription relayThread(long afterSeq, RunEventListener listener) {
        return log.subscribeThread(view, afterSeq, listener, false);
    }

    /** The seq of the newest frame in this format (the protocol's {@code applied_through_seq}); -1 before any. */
    public long lastSeq() {
        return log.lastSeq(view);
    }

    /** The newest run whose segment is still open, or null. */
    public String activeRun() {
        return log.activeRun();
    }

    public boolean holds(String runId) {
        return log.holds(runId);
    }
}
