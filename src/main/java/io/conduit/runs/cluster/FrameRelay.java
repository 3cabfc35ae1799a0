package io.conduit.runs.cluster;

import io.conduit.runs.cluster.FrameExchange.Frame;
import io.conduit.runs.cluster.FrameExchange.Watch;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The owner's side: relays the frames of the runs this process executes, for each thread and format that another
 * process's clients watch, to the shared table through the {@link FrameBatcher}. A relay is an ordinary subscriber of
 * the thread's log (the run is translated once, here, for local and remote clients alike), started when a watch
 * arrives for a thread this process holds or when a run of a watched thread begins here, and stopped when the watch
 * lapses. Local clients never wait for it.
 */
final class FrameRelay {

    private final ThreadLogs logs;
    private final FrameBatcher batcher;
    private final String origin;
    /** Per thread, the formats other processes watch (as of the last notice or reload). */
    private final Map<String, Set<String>> watched = new HashMap<>();
    /** Per thread, its relays by format. */
    private final Map<String, Map<String, ThreadEventLog.Subscription>> relays = new HashMap<>();
    /** Watch notices so far; per thread and format watched, the number of its latest notice not yet reloaded. */
    private long notices;
    private final Map<Watched, Long> noticed = new HashMap<>();

    private record Watched(String threadId, String format) {
    }

    FrameRelay(ThreadLogs logs, FrameBatcher batcher, String origin) {
        this.logs = logs;
        this.batcher = batcher;
        this.origin = origin;
    }

    /** A watch recorded by some process: relayed from now if this process holds the thread. */
    void watch(Watch w) {
        if (origin.equals(w.origin()) || !logs.hasFormat(w.format())) {
            return;
        }
        synchronized (this) {
            watched.computeIfAbsent(w.threadId(), t -> new HashSet<>()).add(w.format());
            noticed.put(new Watched(w.threadId(), w.format()), ++notices);
        }
        if (logs.find(w.threadId()) != null) {
            relay(w.threadId(), w.format());
        }
    }

    /** Where the watch notices are now: give it to {@link #reload} with the watches read after it. */
    synchronized long mark() {
        return notices;
    }

    /**
     * The watches in force, read after {@code mark}: relays of threads no other process watches any more stop. A watch
     * whose notice came after the mark is kept whatever the read says: the read may have been answered from before
     * the watch was recorded (its notice then overtook its answer, and the relay it started would stop mid-run).
     */
    void reload(List<Watch> watches, long mark) {
        Map<String, Set<String>> now = new HashMap<>();
        for (Watch w : watches) {
            if (!origin.equals(w.origin()) && logs.hasFormat(w.format())) {
                now.computeIfAbsent(w.threadId(), t -> new HashSet<>()).add(w.format());
            }
        }
        List<ThreadEventLog.Subscription> stopped = new java.util.ArrayList<>();
        synchronized (this) {
            noticed.entrySet().removeIf(n -> {
                if (n.getValue() <= mark) {
                    return true; // noticed before the read: the read has it, if it still holds
                }
                now.computeIfAbsent(n.getKey().threadId(), t -> new HashSet<>()).add(n.getKey().format());
                return false;
            });
            watched.clear();
            watched.putAll(now);
            relays.entrySet().removeIf(thread -> {
                Set<String> formats = now.getOrDefault(thread.getKey(), Set.of());
                thread.getValue().entrySet().removeIf(r -> {
                    boolean lapsed = !formats.contains(r.getKey());
                    if (lapsed && r.getValue() != null) {
                        stopped.add(r.getValue());
                    }
                    return lapsed;
                });
                return thread.getValue().isEmpty();
            });
        }
        stopped.forEach(ThreadEventLog.Subscription::cancel);
        for (Map.Entry<String, Set<String>> e : now.entrySet()) {
            if (logs.find(e.getKey()) != null) {
                e.getValue().forEach(format -> relay(e.getKey(), format));
            }
        }
    }

    /** A run of the thread begins here (under its log's lock): relays for the formats watched elsewhere. */
    void began(String threadId) {
        Set<String> formats;
        synchronized (this) {
            Set<String> w = watched.get(threadId);
            formats = w == null ? Set.of() : Set.copyOf(w);
        }
        formats.forEach(format -> relay(threadId, format));
    }

    /** A run executed here ended: its end follows its frames, for the watchers' run subscriptions. */
    void ended(String threadId, String runId) {
        synchronized (this) {
            if (!relays.containsKey(threadId)) {
                return;
            }
        }
        batcher.add(Frame.end(threadId, origin, runId));
    }

    private void relay(String threadId, String format) {
        synchronized (this) {
            Map<String, ThreadEventLog.Subscription> byFormat = relays.computeIfAbsent(threadId, t -> new HashMap<>());
            if (byFormat.containsKey(format)) {
                return;
            }
            byFormat.put(format, null); // reserved: the subscription below replays into the batcher at once
        }
        // from the first frame the log holds: the watcher may have missed the start of the run in flight
        ThreadEventLog.Subscription sub = logs.log(format, threadId).relayThread(-1L, new RunEventListener() {
            @Override
            public void onEvent(RunEvent event) {
                batcher.add(Frame.of(threadId, format, origin, event));
            }

            @Override
            public void onEnd() {
                synchronized (FrameRelay.this) {
                    Map<String, ThreadEventLog.Subscription> r = relays.get(threadId);
                    if (r != null) {
                        r.remove(format);
                    }
                }
            }
        });
        // the runs that ended before the relay began were replayed above; their ends follow them (a run ending from
        // now on is told by ended(): twice is harmless, the watcher ends a run once)
        for (String runId : logs.log(threadId).endedRuns()) {
            batcher.add(Frame.end(threadId, origin, runId));
        }
        synchronized (this) {
            Map<String, ThreadEventLog.Subscription> byFormat = relays.get(threadId);
            if (byFormat != null && byFormat.containsKey(format)) {
                byFormat.put(format, sub);
                return;
            }
        }
        sub.cancel(); // stopped by a reload meanwhile
    }
}
