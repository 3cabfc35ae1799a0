package io.conduit.runs.cluster;

import io.conduit.runs.cluster.FrameExchange.Appended;
import io.conduit.runs.cluster.FrameExchange.Cursor;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Rows;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * The watcher's side: while clients here read a thread in a format, the watch is recorded in the shared table (which
 * wakes the process that executes the thread's runs), and the frames other processes relay for the thread are read
 * from the table, in order, into the thread's log here ({@link ThreadLog#appendRemote}), which hands them to its
 * clients and keeps them for replay. A thread is first read on its own, from its first row; from then on the
 * wake-ups of the processes that relay it bring its rows, read per process from where that process's rows were last
 * read, so that a read costs what is new, not one lookup per watched thread.
 */
final class RemoteFrames {

    private static final Logger LOG = Logger.getLogger(RemoteFrames.class);
    /** The rows read per thread at a time. */
    private static final int PAGE = 1_000;
    /** The threads read in one query. */
    private static final int THREADS_PER_READ = 1_000;

    private final ThreadLogs logs;
    private final FrameExchange exchange;
    private final String origin;
    private final Duration ttl;
    private final LongSupplier clock;
    /** Clients per thread and format. */
    private final Map<String, Map<String, Integer>> clients = new HashMap<>();
    /** Per watched thread, how far its rows were read. */
    private final Map<String, Reader> readers = new HashMap<>();
    /** The watched threads named by wake-ups and not read since. */
    private final Set<String> due = new LinkedHashSet<>();
    /** Per process that relays watched threads, how far its rows were read and when it last woke this one. */
    private final Map<String, Origin> origins = new HashMap<>();
    /** Whether a wake-up came since the processes' rows were last read. */
    private boolean originsDue;
    /** Whether a read is on its way. */
    private boolean inFlight;
    /** Whether the last read was of the processes' rows: the threads due have the next turn. */
    private boolean lastWasSince;
    /** Watches given up since the last renewal: their rows go then. */
    private final List<Watch> gone = new ArrayList<>();

    RemoteFrames(ThreadLogs logs, FrameExchange exchange, String origin, Duration ttl, LongSupplier clock) {
        this.logs = logs;
        this.exchange = exchange;
        this.origin = origin;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Called under the thread's log lock: only counts, and records the watch without waiting for it. */
    void watching(String threadId, String format) {
        synchronized (this) {
            Map<String, Integer> formats = clients.computeIfAbsent(threadId, t -> new HashMap<>());
            if (formats.merge(format, 1, Integer::sum) > 1) {
                return;
            }
            gone.remove(new Watch(threadId, format, origin));
            readers.computeIfAbsent(threadId, t -> new Reader());
        }
        // read once it is recorded: frames relayed from then on are in the table
        exchange.watch(new Watch(threadId, format, origin), ttl).subscribe().with(ok -> readThread(threadId),
                f -> LOG.warnf("The watch of thread %s was not recorded: %s", threadId, f.getMessage()));
    }

    void unwatched(String threadId, String format) {
        synchronized (this) {
            Map<String, Integer> formats = clients.get(threadId);
            if (formats == null || formats.merge(format, -1, Integer::sum) > 0) {
                return;
            }
            formats.remove(format);
            gone.add(new Watch(threadId, format, origin));
            if (formats.isEmpty()) {
                clients.remove(threadId);
                readers.remove(threadId);
            }
        }
    }

    /** A run this process did not create starts here: the process that created it may hold its clients. */
    void claimedHere(String threadId, String runId) {
        exchange.claimed(threadId, runId, origin).subscribe().with(ok -> { },
                f -> LOG.warnf("The claim of run %s was not told: %s", runId, f.getMessage()));
    }

    /** Another process executes a run: if it was created here, its clients here now watch for its frames. */
    void claimedElsewhere(String threadId, String runId, String by) {
        if (origin.equals(by)) {
            return;
        }
        ThreadLog log = logs.find(threadId);
        if (log != null) {
            log.executedElsewhere(runId);
        }
    }

    /**
     * A wake-up: another process stored a batch. If it names a thread watched here (or too many threads to name them),
     * that process's new rows are read, from where they were last read. The first batch seen of a process is read
     * from its own first row: what that process stored before for the threads it names (every watched thread, when it
     * names none) is brought by a read of each of those threads, and its rows are handed to them only after that.
     */
    void appended(Appended batch) {
        if (origin.equals(batch.origin())) {
            return; // relayed by this process for the others: its clients had it live
        }
        synchronized (this) {
            // a batch's ids may be at or below the last read of its process: a read can see a batch before its wake-up
            boolean firstOfProcess = !origins.containsKey(batch.origin());
            boolean named = false;
            for (String t : batch.named() ? batch.threadIds() : readers.keySet()) {
                Reader r = readers.get(t);
                if (r == null) {
                    continue;
                }
                named = true;
                if (firstOfProcess) {
                    r.caughtUp = false; // what the process stored for it before is brought by its own read
                }
                if (!r.caughtUp) {
                    due.add(t); // its own read may have been taken before this batch: one more brings it
                }
            }
            if (named) {
                origins.computeIfAbsent(batch.origin(), o -> new Origin(batch.firstId() - 1)).wokeAt = clock.getAsLong();
                originsDue = true;
            }
        }
        read();
    }

    /**
     * A run of the thread executed here is another process's now: the rows that process wrote while this one held the
     * run were passed over (a run executed here takes no relayed frames), so the thread is read again from its first
     * row; frames already held are skipped by their seq. Not watched yet: its first watch reads it from the start.
     * Called under the thread's log lock: marks, and starts the read without waiting for it.
     */
    void readAgain(String threadId) {
        synchronized (this) {
            Reader r = readers.get(threadId);
            if (r == null) {
                return;
            }
            readAgain(threadId, r);
        }
        read();
    }

    /**
     * A thread's rows end before the last one read of it: they expired (ids do not go back, so the processes' read
     * points stay). The thread is read again from its first row; frames already held are skipped by their seq.
     */
    private void readAgain(String threadId, Reader r) {
        r.lastId = 0;
        r.caughtUp = false;
        due.add(threadId);
    }

    /**
     * The wake-ups (re)started: those sent while they were down are lost, and a database crash, which always ends
     * them, empties the unlogged table and begins its ids again. So every watched thread is read again on its own
     * from its first row (frames already held are skipped by their seq), and each process from its next batch on;
     * the watches are recorded again.
     */
    void resumed() {
        synchronized (this) {
            origins.clear();
            readers.forEach((t, r) -> readAgain(t, r));
        }
        renew(); // the crash emptied the watches too: recorded again, they restart the owners' relays at once
    }

    /**
     * Renews this process's watches, drops those given up, and tries again the reads that failed: the processes' rows
     * (one read, of what is new), and the threads whose own read has not brought them up to the live path. Not every
     * watched thread: a wake-up is lost only with the listener's connection, and then {@link #resumed} reads them all
     * (read every renewal, a thousand threads took the read loop for a tenth of a second).
     */
    void renew() {
        List<Watch> dropped;
        List<Watch> held = new ArrayList<>();
        synchronized (this) {
            dropped = List.copyOf(gone);
            gone.clear();
            clients.forEach((thread, formats) -> formats.keySet().forEach(f -> held.add(new Watch(thread, f, origin))));
            readers.forEach((t, r) -> {
                if (!r.caughtUp) {
                    due.add(t);
                }
            });
            // a process silent for two watch lifetimes is forgotten (a replica restarted is a new process; the old one
            // would be read for ever); if it wakes again, the threads it names are read on their own first, as for any
            // process seen for the first time
            long silentSince = clock.getAsLong() - 2 * ttl.toMillis();
            origins.values().removeIf(o -> o.wokeAt < silentSince);
            originsDue |= !origins.isEmpty();
        }
        exchange.renew(held, dropped, ttl).subscribe().with(ok -> { },
                f -> LOG.warnf("Watches were not renewed: %s", f.getMessage()));
        read();
    }

    private void readThread(String threadId) {
        synchronized (this) {
            if (readers.containsKey(threadId)) {
                due.add(threadId);
            }
        }
        read();
    }

    /**
     * One read at a time; wake-ups during it make the next one. The processes' new rows (one range each, the live
     * path) and the threads due a read of their own (a new watch, the renewal, a restart; in one query for them all)
     * take turns, so that a busy live path does not keep new watches waiting.
     */
    private void read() {
        Map<String, Long> since;
        synchronized (this) {
            if (inFlight || (!originsDue && due.isEmpty())) {
                return;
            }
            inFlight = true;
            boolean threadsTurn = !originsDue || (!due.isEmpty() && lastWasSince);
            lastWasSince = !threadsTurn;
            if (threadsTurn) {
                readThreads();
                return;
            }
            originsDue = false;
            since = new HashMap<>();
            origins.forEach((o, read) -> since.put(o, read.lastId));
        }
        exchange.since(since, PAGE).subscribe().with(rows -> {
            try {
                deliverSince(rows);
            } finally {
                done();
            }
        }, f -> {
            LOG.warnf("Relayed frames were not read: %s", f.getMessage());
            done();
        });
    }

    /** Called holding the lock, with {@code inFlight} set. */
    private void readThreads() {
        Map<String, Reader> reading = new HashMap<>();
        List<Cursor> cursors = new ArrayList<>();
        for (var it = due.iterator(); it.hasNext() && cursors.size() < THREADS_PER_READ; ) {
            String t = it.next();
            it.remove();
            Reader r = readers.get(t);
            if (r != null) {
                reading.put(t, r);
                cursors.add(new Cursor(t, r.lastId));
            }
        }
        if (cursors.isEmpty()) {
            inFlight = false;
            return;
        }
        exchange.after(cursors, PAGE).subscribe().with(rows -> {
            try {
                deliverByThread(rows, reading);
            } finally {
                done();
            }
        }, f -> {
            LOG.warnf("Relayed frames of %d threads were not read: %s", cursors.size(), f.getMessage());
            done();
        });
    }

    private void done() {
        synchronized (this) {
            inFlight = false;
        }
        read();
    }

    /**
     * The processes' new rows: each goes to its thread if read there up to it, else the thread's own read brings it.
     * When a process filled its page, rows past that page's last id wait for the next read: another process's rows
     * there may follow rows of the same thread the full page left out (a thread handed from one process to another).
     */
    private void deliverSince(List<Frame> rows) {
        List<Frame> fresh = new ArrayList<>(rows.size());
        synchronized (this) {
            Map<String, Integer> perOrigin = new HashMap<>();
            Map<String, Long> lastOf = new HashMap<>();
            rows.forEach(f -> {
                perOrigin.merge(f.origin(), 1, Integer::sum);
                lastOf.merge(f.origin(), f.id(), Math::max);
            });
            long cut = Long.MAX_VALUE;
            for (var e : perOrigin.entrySet()) {
                if (e.getValue() >= PAGE) {
                    cut = Math.min(cut, lastOf.get(e.getKey()));
                    originsDue = true; // more are waiting
                }
            }
            for (Frame f : rows) {
                if (f.id() > cut) {
                    break; // in id order: the rest waits
                }
                Origin read = origins.get(f.origin()); // null: forgotten meanwhile
                if (read != null) {
                    read.lastId = Math.max(read.lastId, f.id());
                }
                Reader r = readers.get(f.threadId());
                if (r != null && r.caughtUp && f.id() > r.lastId) {
                    r.lastId = f.id();
                    fresh.add(f);
                }
            }
        }
        fresh.forEach(this::deliver);
    }

    private void deliverByThread(Rows rows, Map<String, Reader> reading) {
        List<Frame> fresh = new ArrayList<>(rows.frames().size());
        synchronized (this) {
            Map<String, Integer> counts = new HashMap<>();
            for (Frame f : rows.frames()) {
                counts.merge(f.threadId(), 1, Integer::sum);
                Reader r = reading.get(f.threadId());
                if (readers.get(f.threadId()) == r && f.id() > r.lastId) { // not given up (and watched anew) meanwhile
                    r.lastId = f.id();
                    fresh.add(f);
                }
            }
            reading.forEach((t, r) -> {
                int n = counts.getOrDefault(t, 0);
                if (readers.get(t) != r) {
                    return; // given up meanwhile
                }
                if (n == 0 && rows.newest().getOrDefault(t, 0L) < r.lastId) {
                    readAgain(t, r);
                } else if (n == PAGE) {
                    r.caughtUp = false; // the rest first, on its own: the processes' rows may be past it
                    due.add(t);
                } else {
                    r.caughtUp = true;
                }
            });
        }
        fresh.forEach(this::deliver);
    }

    private void deliver(Frame f) {
        if (origin.equals(f.origin())) {
            return; // relayed by this process for the others: its clients had it live
        }
        ThreadLog log = logs.log(f.threadId());
        if (f.event() == null) {
            log.endRemote(f.endedRunId(), clock.getAsLong());
        } else if (logs.hasFormat(f.format())) {
            log.appendRemote(f.format(), f.event());
        }
    }

    /** How far a relaying process's rows were read, and when its last wake-up came. */
    private static final class Origin {
        long lastId;
        long wokeAt;

        Origin(long lastId) {
            this.lastId = lastId;
        }
    }

    /** How far a watched thread's rows were read, and whether its own read has brought it up to the live path. */
    private static final class Reader {
        long lastId;
        boolean caughtUp;
    }
}
