package io.conduit.runs.events;

import io.conduit.graph.GraphEvent;
import java.util.Arrays;

/**
 * The part of a thread's log one run wrote: its entries as typed records, in order, with the time each was logged. No
 * JSON is made here; each wire format translates the entries when a client reads them ({@link Translation}).
 *
 * <p>Compact, because a run's tokens are most of its entries: a token of the same message and task as the one before
 * is kept as its text alone (a {@code String}), and times are kept as milliseconds since the segment's first entry.
 * A token costs the segment two array slots (8 bytes) and its {@code String} (40 bytes and its characters).
 *
 * <p>Bounded: past its bound a segment is shed (its entries dropped, its translations kept going live), and a replay
 * of it says so. Not thread-safe: {@link ThreadLog} guards it.
 */
final class RunSegment {

    /** The memory a non-token entry is counted for: it holds references to values the run's checkpoints also hold. */
    private static final int ENTRY_BYTES = 256;
    /** A token's cost beyond its characters: two slots, the String and its array's header. */
    private static final int TOKEN_BYTES = 48;

    final String runId;
    private final long maxBytes;
    private Object[] items = new Object[32];
    private int[] at = new int[32];
    private int size;
    private long startMillis = -1;
    private long bytes;
    long endedAtMillis = -1;
    /** Whether its entries were dropped to bound memory: from then on it is only translated live. */
    boolean shed;
    /** Once shed, the seq its frames were numbered from (its {@link RunNotice.Began}), for the notice of a replay. */
    long shedFromSeq = -1;
    /** Per view, its translation, once a client asked for that format. */
    final Translation[] translations;
    /** The last token kept whole: a following token of the same message and task is kept as its text. */
    private GraphEvent.Token lastToken;

    RunSegment(String runId, long maxBytes, int views) {
        this.runId = runId;
        this.maxBytes = maxBytes;
        this.translations = new Translation[views];
    }

    /** Keeps an entry; returns the bytes it adds. */
    long add(Object entry, long nowMillis) {
        if (shed) {
            return 0; // translated live only: a replay of a shed run cannot use what follows
        }
        if (startMillis < 0) {
            startMillis = nowMillis;
        }
        if (size == items.length) {
            int grown = Math.max(32, size * 2);
            items = Arrays.copyOf(items, grown);
            at = Arrays.copyOf(at, grown);
        }
        long added;
        if (entry instanceof GraphEvent.Token t) {
            if (lastToken != null && lastToken.messageId().equals(t.messageId()) && lastToken.tag().equals(t.tag())) {
                items[size] = t.text();
            } else {
                items[size] = t;
                lastToken = t;
            }
            added = TOKEN_BYTES + 2L * t.text().length();
        } else {
            items[size] = entry;
            added = ENTRY_BYTES;
        }
        at[size++] = (int) (nowMillis - startMillis);
        bytes += added;
        return added;
    }

    /** The run's first entry (its {@link RunNotice.Began}); null when it has none. */
    Object first() {
        return size == 0 ? null : items[0];
    }

    int size() {
        return size;
    }

    /** Whether it is over its bound (the log then sheds it). */
    boolean over() {
        return bytes > maxBytes;
    }

    /** Feeds entries {@code [from, size)} to a translator, in order. */
    void feed(int from, RunTranslator to) {
        GraphEvent.Token context = null;
        for (int i = 0; i < size; i++) {
            Object item = items[i];
            if (item instanceof GraphEvent.Token t) {
                context = t;
            }
            if (i < from) {
                continue;
            }
            Object entry = item instanceof String text ? new GraphEvent.Token(context.tag(), context.messageId(), text) : item;
            to.on(entry, startMillis + at[i]);
        }
    }

    long millisAt(int index) {
        return startMillis + at[index];
    }

    /** Drops every entry; returns the bytes freed. Its translations go on live. */
    long drop() {
        long freed = bytes;
        if (size > 0 && items[0] instanceof RunNotice.Began began) {
            shedFromSeq = began.firstSeq();
        }
        items = new Object[0];
        at = new int[0];
        size = 0;
        bytes = 0;
        lastToken = null;
        shed = true;
        return freed;
    }

    /** The run ended: its arrays lose the room kept for growth (up to half their slots). */
    void trim() {
        if (items.length > size) {
            items = Arrays.copyOf(items, size);
            at = Arrays.copyOf(at, size);
        }
    }

    boolean ended() {
        return endedAtMillis >= 0;
    }

    long bytes() {
        return bytes;
    }
}
