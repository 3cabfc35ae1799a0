package io.conduit.runs.events;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The event logs of every thread this process is running or has recently run: one {@link ThreadLog} per thread, read
 * in each wire format ({@link EventView}: every format bean the service has, the classic stream's and the thread
 * protocol's among them). A run's entries stay for the longest format's retention after it ends (so
 * a client that lost its connection can replay them); memory is bounded per run (a segment past {@code maxRunBytes}
 * is shed) and in total (the sweep sheds the oldest runs of the largest logs past {@code maxTotalBytes}).
 */
public final class ThreadLogs {

    private final Map<String, ThreadLog> logs = new ConcurrentHashMap<>();
    /**
     * Every token adds to it, from every event loop, and only the sweep reads it: an {@code AtomicLong} here was one
     * cache line that the cores took from each other on each token.
     */
    private final LongAdder bytes = new LongAdder();
    private final AtomicInteger openRuns = new AtomicInteger();
    private final List<EventView> views;
    private final java.util.Set<String> formats;
    private final Duration retention;
    private final long maxRunBytes;
    private final long maxTotalBytes;
    private final LongSupplier clock;
    private volatile ClusterLink link = ClusterLink.NONE;
    /** Makes the runs' frames per format, for every thread's log (it holds nothing of a thread). */
    private final SegmentFrames frames = new SegmentFrames(this);

    public ThreadLogs(List<EventView> views, long maxRunBytes, long maxTotalBytes, LongSupplier clock) {
        if (views.size() > Long.SIZE) { // a log finds the formats a run's subscribers read as one bit each
            throw new IllegalArgumentException("at most " + Long.SIZE + " formats, not " + views.size());
        }
        this.views = List.copyOf(views);
        this.formats = views.stream().map(EventView::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.clock = clock;
        this.retention = views.stream().map(EventView::retention).max(Comparator.naturalOrder()).orElse(Duration.ZERO);
        this.maxRunBytes = maxRunBytes;
        this.maxTotalBytes = maxTotalBytes;
    }

    /** Ties the logs to the other replicas (set once at start-up when they share a database). */
    public void link(ClusterLink link) {
        this.link = link;
    }

    ClusterLink link() {
        return link;
    }

    SegmentFrames frames() {
        return frames;
    }

    /** Whether other replicas may hold runs' frames this process lacks (they relay them to a watcher). */
    public boolean shared() {
        return link != ClusterLink.NONE;
    }

    /** How long after its run's end a run's frames are replayed, in the format that keeps them longest. */
    public Duration retention() {
        return retention;
    }

    long maxRunBytes() {
        return maxRunBytes;
    }

    /** Whether the logs are read in the format named {@code name} (a relayed frame of another one is not kept). */
    public boolean hasFormat(String name) {
        return formats.contains(name);
    }

    List<EventView> views() {
        return views;
    }

    /** The index of the format named {@code name}. */
    int view(String name) {
        for (int i = 0; i < views.size(); i++) {
            if (views.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no event view " + name);
    }

    public ThreadLog log(String threadId) {
        return logs.computeIfAbsent(threadId, t -> new ThreadLog(t, this));
    }

    /** The thread's log as the format named {@code format} reads it (made if this process holds none). */
    public ThreadEventLog log(String format, String threadId) {
        return new ThreadEventLog(log(threadId), view(format));
    }

    /** The thread's log if this process holds one. */
    public ThreadLog find(String threadId) {
        return logs.get(threadId);
    }

    /** Opens the run's segment in its thread's log. */
    public ThreadLog begin(String threadId, String runId) {
        ThreadLog log = log(threadId);
        log.begin(runId, maxRunBytes);
        return log;
    }

    /**
     * Opens the segment of a run this process's worker starts. One it did not create here (claimed from another
     * replica, or resumed after a restart) is told to the cluster: the replica that created it may hold its clients.
     */
    public ThreadLog start(String threadId, String runId) {
        ThreadLog log = log(threadId);
        if (log.begin(runId, maxRunBytes)) {
            link.claimed(threadId, runId);
        }
        return log;
    }

    /** Drops the segment of a run that was never stored (its creation failed). */
    public void abandon(String threadId, String runId) {
        ThreadLog log = logs.get(threadId);
        if (log != null) {
            log.dropRun(runId);
        }
    }

    /** The ids of the threads whose logs this process holds. */
    public java.util.Set<String> threads() {
        return java.util.Set.copyOf(logs.keySet());
    }

    /** Forgets a deleted thread's events. */
    public void forget(String threadId) {
        ThreadLog log = logs.remove(threadId);
        if (log != null) {
            log.close(millis());
        }
    }

    long millis() {
        return clock.getAsLong();
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
        bytes.add(delta);
    }

    public long bytes() {
        return bytes.sum();
    }

    /**
     * Drops what is past retention, then sheds the largest logs while over the total bound: their ended runs, then if
     * need be their runs in flight. Run it periodically.
     */
    public void sweep(long nowMillis) {
        long cutoff = nowMillis - retention.toMillis();
        logs.entrySet().removeIf(e -> e.getValue().expire(cutoff));
        long over = bytes.sum() - maxTotalBytes;
        if (over <= 0) {
            return;
        }
        // sizes are read once: logs grow on other event loops meanwhile, and a sort on a moving key throws
        List<SizedLog> largestFirst = logs.values().stream().map(log -> new SizedLog(log, log.sizeForShedding()))
                .sorted(Comparator.comparingLong(SizedLog::size).reversed()).toList();
        // ended runs first: a replay of a run in flight (a join, a reconnect) then still gets all of it
        for (boolean endedOnly : new boolean[] {true, false}) {
            for (SizedLog sized : largestFirst) {
                over -= sized.log().shed(over, endedOnly);
                if (over <= 0) {
                    return;
                }
            }
        }
    }

    private record SizedLog(ThreadLog log, long size) {
    }
}
