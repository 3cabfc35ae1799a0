package io.conduit.runs.cluster;

import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    private static final int PAGE = 1_000;

    private final ThreadLogs logs;
    private final FrameExchange exchange;
    private final String origin;
    private final Duration ttl;
    private final LongSupplier clock;
    /** Clients per thread and format. */
    private final Map<String, Map<String, Integer>> clients = new HashMap<>();
    /** Per watched thread, how far its rows were read. */
    private final Map<String, Reader> readers = new HashMap<>();
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
        exchange.watch(new Watch(threadId, format, origin), ttl).subscribe().with(ok -> read(threadId),
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
        for (String t : threadIds) {
            boolean watched;
            synchronized (this) {
                watched = readers.containsKey(t);
            }
            if (watched) {
                read(t);
            }
        }
    }

    /** Renews this process's watches, drops those given up, and reads every watched thread (a wake-up may be lost). */
    void renew() {
        List<Watch> dropped;
        List<Watch> held = new ArrayList<>();
        List<String> threads;
        synchronized (this) {
            dropped = List.copyOf(gone);
            gone.clear();
            clients.forEach((thread, formats) -> formats.keySet().forEach(f -> held.add(new Watch(thread, f, origin))));
            threads = List.copyOf(readers.keySet());
        }
        exchange.renew(held, dropped, ttl).subscribe().with(ok -> { },
                f -> LOG.warnf("Watches were not renewed: %s", f.getMessage()));
        threads.forEach(this::read);
    }

    /** Reads the thread's new rows, one read at a time per thread (a wake-up during a read reads again after it). */
    private void read(String threadId) {
        Reader r;
        synchronized (this) {
            r = readers.get(threadId);
            if (r == null) {
                return;
            }
            if (r.reading) {
                r.again = true;
                return;
            }
            r.reading = true;
            r.again = false;
        }
        exchange.after(threadId, r.lastId, PAGE)
                .chain(rows -> rows.isEmpty() && r.lastId > 0 ? restarted(threadId, r, rows) : Uni.createFrom().item(rows))
                .subscribe().with(rows -> {
            deliver(threadId, rows, r);
            boolean more;
            synchronized (this) {
                r.reading = false;
                more = rows.size() == PAGE || r.again;
            }
            if (more) {
                read(threadId);
            }
        }, f -> {
            synchronized (this) {
                r.reading = false;
            }
            LOG.warnf("Relayed frames of thread %s were not read: %s", threadId, f.getMessage());
        });
    }

    /**
     * Nothing after the last row read: either nothing new, or the table's ids started again (an unlogged table and its
     * sequence are emptied by a database crash); then the thread is read from its first row (frames already held are
     * skipped by their seq).
     */
    private Uni<List<Frame>> restarted(String threadId, Reader r, List<Frame> none) {
        return exchange.newest(threadId).chain(newest -> {
            if (newest >= r.lastId) {
                return Uni.createFrom().item(none);
            }
            r.lastId = 0;
            return exchange.after(threadId, 0, PAGE);
        });
    }

    private void deliver(String threadId, List<Frame> rows, Reader r) {
        ThreadLog log = logs.log(threadId);
        for (Frame f : rows) {
            r.lastId = Math.max(r.lastId, f.id());
            if (origin.equals(f.origin())) {
                continue; // relayed by this process for the others: its clients had it live
            }
            if (f.event() == null) {
                log.endRemote(f.endedRunId(), clock.getAsLong());
            } else if (logs.hasFormat(f.format())) {
                log.appendRemote(f.format(), f.event());
            }
        }
    }

    /** How far a watched thread's rows were read. */
    private static final class Reader {
        long lastId;
        boolean reading;
        boolean again;
    }
}
