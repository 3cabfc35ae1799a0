package io.conduit.runs;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The event logs of every thread this process is running or has recently run. Each run's events stay for
 * {@code retention} after it ends (so a client that lost its connection can replay them); memory is bounded per run
 * (a segment drops its oldest events past {@code maxRunBytes}) and in total (the sweep sheds the oldest events of the
 * largest logs past {@code maxTotalBytes}).
 */
public final class RunEventLogs {

    /** What a replay sends in place of the events of run {@code runId} that were dropped, up to {@code droppedThrough}. */
    @FunctionalInterface
    public interface DroppedNotice {
        RunEvent of(String runId, long droppedThrough);
    }

    /** The classic log's notice: an SSE {@code error} event. */
    static final DroppedNotice CLASSIC_NOTICE = (runId, through) -> new RunEvent(through, runId, "error", "",
            "{\"error\":\"EventsDropped\",\"message\":\"the events of run " + runId + " up to " + through
                    + " were dropped to bound memory; read the run's state instead\"}");

    private final Map<String, ThreadEventLog> logs = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger openRuns = new java.util.concurrent.atomic.AtomicInteger();
    private final Duration retention;
    private final long maxRunBytes;
    private final long maxTotalBytes;
    private final DroppedNotice notice;

    public RunEventLogs(Duration retention, long maxRunBytes, long maxTotalBytes) {
        this(retention, maxRunBytes, maxTotalBytes, CLASSIC_NOTICE);
    }

    public RunEventLogs(Duration retention, long maxRunBytes, long maxTotalBytes, DroppedNotice notice) {
        this.notice = notice;
        this.retention = retention;
        this.maxRunBytes = maxRunBytes;
        this.maxTotalBytes = maxTotalBytes;
    }

    public ThreadEventLog log(String threadId) {
        return logs.computeIfAbsent(threadId, t -> new ThreadEventLog(t, this));
    }

    /** The thread's log if this process holds one. */
    public ThreadEventLog find(String threadId) {
        return logs.get(threadId);
    }

    /** Opens the run's segment in its thread's log. */
    public ThreadEventLog begin(String threadId, String runId) {
        ThreadEventLog log = log(threadId);
        log.begin(runId, maxRunBytes);
        return log;
    }

    /** Drops the segment of a run that was never stored (its creation failed). */
    public void abandon(String threadId, String runId) {
        ThreadEventLog log = logs.get(threadId);
        if (log != null) {
            log.dropRun(runId);
        }
    }

    /** Forgets a deleted thread's events. */
    public void forget(String threadId) {
        ThreadEventLog log = logs.remove(threadId);
        if (log != null) {
            log.close(System.currentTimeMillis());
        }
    }

    RunEvent droppedNotice(String runId, long droppedThrough) {
        return notice.of(runId, droppedThrough);
    }

    void opened(int delta) {
        openRuns.addAndGet(delta);
    }

    /**
     * Runs this process holds and has not seen end: those it runs, and those created here that wait for a worker
     * (each has an open segment from its creation or its start to its end).
     */
    public int openRuns() {
        return openRuns.get();
    }

    void account(long delta) {
        bytes.addAndGet(delta);
    }

    public long bytes() {
        return bytes.get();
    }

    /** Drops what is past retention, then sheds the largest logs while over the total bound. Run it periodically. */
    public void sweep(long nowMillis) {
        long cutoff = nowMillis - retention.toMillis();
        logs.entrySet().removeIf(e -> e.getValue().expire(cutoff));
        long over = bytes.get() - maxTotalBytes;
        if (over <= 0) {
            return;
        }
        // sizes are read once: logs grow on other event loops meanwhile, and a sort on a moving key throws
        List<SizedLog> largestFirst = logs.values().stream().map(log -> new SizedLog(log, log.sizeForShedding()))
                .sorted(Comparator.comparingLong(SizedLog::size).reversed()).toList();
        for (SizedLog sized : largestFirst) {
            long freed = sized.log().shed(over);
            bytes.addAndGet(-freed);
            over -= freed;
            if (over <= 0) {
                return;
            }
        }
    }

    private record SizedLog(ThreadEventLog log, long size) {
    }
}
