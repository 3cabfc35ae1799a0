package io.conduit.runs.cluster;

import io.conduit.runs.cluster.FrameExchange.Cursor;
import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Rows;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jboss.logging.Logger;

/**
 * The watcher's side: while clients here read a thread in a format, the watch is recorded in the shared table (which
 * wakes the process that executes the thread's runs), and the frames other processes relay for the thread are read
 * from the table whenever a wake-up names it, in order, into the thread's log here ({@link ThreadLog#appendRemote}),
 * which hands them to its clients and keeps them for replay.
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
    /** Whether a read is on its way. */
    private boolean inFlight;
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

    /** A wake-up: the threads whose frames were appended. */
    void appended(List<String> threadIds) {
        synchronized (this) {
            for (String t : threadIds) {
                if (readers.containsKey(t)) {
                    due.add(t);
                }
            }
        }
        read();
    }

    /** Renews this process's watches, drops those given up, and reads every watched thread (a wake-up may be lost). */
    void renew() {
        List<Watch> dropped;
        List<Watch> held = new ArrayList<>();
        synchronized (this) {
            dropped = List.copyOf(gone);
            gone.clear();
            clients.forEach((thread, formats) -> formats.keySet().forEach(f -> held.add(new Watch(thread, f, origin))));
            due.addAll(readers.keySet());
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
     * Reads the new rows of every thread due, in one query for them all (a thousand threads woken by one batch cost one
     * round trip, not a thousand), one read at a time: wake-ups during a read make the next one.
     */
    private void read() {
        Map<String, Reader> reading = new HashMap<>();
        List<Cursor> cursors = new ArrayList<>();
        synchronized (this) {
            if (inFlight || due.isEmpty()) {
                return;
            }
            inFlight = true;
            for (var it = due.iterator(); it.hasNext() && cursors.size() < THREADS_PER_READ; ) {
                String t = it.next();
                it.remove();
                Reader r = readers.get(t);
                if (r != null) {
                    reading.put(t, r);
                    cursors.add(new Cursor(t, r.lastId));
                }
            }
        }
        if (cursors.isEmpty()) {
            done();
            return;
        }
        exchange.after(cursors, PAGE).subscribe().with(rows -> {
            deliver(rows, reading);
            done();
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

    private void deliver(Rows rows, Map<String, Reader> reading) {
        Set<String> current = new HashSet<>();
        synchronized (this) {
            reading.forEach((t, r) -> {
                if (readers.get(t) == r) { // not given up (and maybe watched anew) meanwhile
                    current.add(t);
                }
            });
        }
        Map<String, Integer> counts = new HashMap<>();
        for (Frame f : rows.frames()) {
            Reader r = reading.get(f.threadId());
            counts.merge(f.threadId(), 1, Integer::sum);
            r.lastId = Math.max(r.lastId, f.id());
            if (!current.contains(f.threadId()) || origin.equals(f.origin())) {
                continue; // no longer watched, or relayed by this process for the others: its clients had it live
            }
            ThreadLog log = logs.log(f.threadId());
            if (f.event() == null) {
                log.endRemote(f.endedRunId(), clock.getAsLong());
            } else if (logs.hasFormat(f.format())) {
                log.appendRemote(f.format(), f.event());
            }
        }
        boolean restarted = false;
        synchronized (this) {
            for (Map.Entry<String, Reader> e : reading.entrySet()) {
                Reader r = e.getValue();
                int n = counts.getOrDefault(e.getKey(), 0);
                if (n == 0 && rows.newest().getOrDefault(e.getKey(), 0L) < r.lastId) {
                    // the table's ids started again (an unlogged table and its sequence are emptied by a database
                    // crash): the thread is read from its first row; frames already held are skipped by their seq
                    r.lastId = 0;
                    n = PAGE;
                    restarted = true;
                }
                if (n == PAGE && readers.get(e.getKey()) == r) {
                    due.add(e.getKey());
                }
            }
        }
        if (restarted) {
            // the crash emptied the watches too: they are recorded again now, which restarts the owners' relays
            LOG.info("The relayed frames' table was emptied (a database crash): watches are recorded again");
            renew();
        }
    }

    /** How far a watched thread's rows were read. */
    private static final class Reader {
        long lastId;
    }
}
