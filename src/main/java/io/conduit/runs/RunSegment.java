package io.conduit.runs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of a thread's event log one run wrote. Bounded: past {@code maxBytes} the oldest events are dropped (the
 * events {@link RunEvent#kept} always stay), and {@link #droppedThrough} says how far, so a replay that needs them can say so.
 * Not thread-safe: {@link ThreadEventLog} guards it.
 */
final class RunSegment {

    final String runId;
    private final long maxBytes;
    private final ArrayDeque<RunEvent> events = new ArrayDeque<>();
    private long bytes;
    long droppedThrough = -1;
    long endedAtMillis = -1;

    RunSegment(String runId, long maxBytes) {
        this.runId = runId;
        this.maxBytes = maxBytes;
    }

    /** Appends; returns the bytes freed by dropping old events (negative: the bytes added). */
    long add(RunEvent e) {
        events.addLast(e);
        long delta = size(e);
        bytes += delta;
        long freed = 0;
        while (bytes > maxBytes && events.size() > 1 && !events.peekFirst().kept()) {
            RunEvent old = events.pollFirst();
            droppedThrough = old.seq();
            bytes -= size(old);
            freed += size(old);
        }
        return freed - delta;
    }

    /** Drops the oldest events to free about {@code wanted} bytes (when the log as a whole is over its bound). */
    long shed(long wanted) {
        long freed = 0;
        while (freed < wanted && events.size() > 1 && !events.peekFirst().kept()) {
            RunEvent old = events.pollFirst();
            droppedThrough = old.seq();
            bytes -= size(old);
            freed += size(old);
        }
        return freed;
    }

    List<RunEvent> after(long seq) {
        List<RunEvent> out = new ArrayList<>();
        for (RunEvent e : events) {
            if (e.seq() > seq) {
                out.add(e);
            }
        }
        return out;
    }

    boolean ended() {
        return endedAtMillis >= 0;
    }

    long bytes() {
        return bytes;
    }

    private static long size(RunEvent e) {
        return 64L + e.retained() * 2L;
    }
}
