package io.conduit.runs.events;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs a thread's log holds, oldest first: the segments of the runs this process executes or executed, and the
 * runs other replicas execute, as their relayed frames; and what they cost in memory, freed by retention and, over the
 * logs' bound, by shedding. Called under the thread's log lock ({@link ThreadLog}).
 */
final class LoggedRuns {

    final Map<String, RunSegment> segments = new LinkedHashMap<>();
    final Map<String, RemoteRun> remote = new LinkedHashMap<>();
    private final ThreadLogs owner;

    LoggedRuns(ThreadLogs owner) {
        this.owner = owner;
    }

    /** Forgets runs that ended before {@code cutoffMillis}; true when none is left. */
    boolean expire(long cutoffMillis) {
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
        return segments.isEmpty() && remote.isEmpty();
    }

    /**
     * Frees about {@code wanted} bytes: {@code endedOnly}, from the runs relayed from other replicas that ended and then
     * the oldest segments that ended; else from the oldest segments, in flight or not.
     */
    long shed(long wanted, boolean endedOnly) {
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
                freed += owner.frames().shed(s);
            }
        }
        return freed;
    }

    /** What the runs hold, as the logs' bound counts it. */
    long bytes() {
        long n = 0;
        for (RunSegment s : segments.values()) {
            n += s.bytes();
        }
        for (RemoteRun r : remote.values()) {
            n += r.bytes();
        }
        return n;
    }

    /** Forgets the segment of a run of this process: never stored, or executed elsewhere now. */
    void drop(String runId) {
        RunSegment s = segments.remove(runId);
        if (s != null) {
            owner.account(-s.bytes());
            if (!s.ended()) {
                owner.opened(-1);
            }
        }
    }

    /** The thread is deleted: its open segments count as ended (they end nowhere else), then everything is dropped. */
    void close(long nowMillis) {
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
