package io.conduit.runs.events;

import io.conduit.graph.GraphEvent;
import java.util.Arrays;

/**
 * The part of a thread's log one run wrote: its entries as typed records, in order, with the time each was logged. No
 * JSON is made here; each wire format translates the entries when a client reads them ({@link Translation}).
 *
 * <p>Compact, because a run's tokens are most of its entries: a token of the same message and task as the one before
 * is kept as its characters alone, appended to one buffer of the segment's texts, and times are kept as milliseconds
 * since the segment's first entry. Such a token costs three array slots (12 bytes) and its characters, and the log
 * holds no object of its own: the token's {@code String} dies young, and an old segment gains no reference to a young
 * object per token, which a young collection would have to scan (at 5,000 streams, 6 % of the server's CPU).
 *
 * <p>Bounded: past its bound a segment is shed (its entries dropped, its translations kept going live), and a replay
 * of it says so. Not thread-safe: {@link ThreadLog} guards it.
 */
final class RunSegment {

    /** The memory a non-token entry is counted for: it holds references to values the run's checkpoints also hold. */
    private static final int ENTRY_BYTES = 256;
    /** A token kept whole: two slots, the record, its String and its array's header. */
    private static final int TOKEN_BYTES = 72;
    /** A token kept as its characters: three slots (counted at two bytes a character, as if not Latin-1). */
    private static final int TEXT_BYTES = 12;

    final String runId;
    private final long maxBytes;
    private Object[] items = new Object[32];
    private int[] at = new int[32];
    /** Where each entry's characters end in {@link #texts} (an entry that is not a text-only token: where they stood). */
    private int[] textEnd = new int[32];
    /** The characters of the tokens kept as text alone, one after the other; null entries of {@link #items} read them. */
    private StringBuilder texts = new StringBuilder();
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
            textEnd = Arrays.copyOf(textEnd, grown);
        }
        long added;
        if (entry instanceof GraphEvent.Token t) {
            if (lastToken != null && lastToken.messageId().equals(t.messageId()) && lastToken.tag().equals(t.tag())) {
                texts.append(t.text()); // its slot in items stays null
                added = TEXT_BYTES + 2L * t.text().length();
            } else {
                items[size] = t;
                lastToken = t;
                added = TOKEN_BYTES + 2L * t.text().length();
            }
        } else {
            items[size] = entry;
            added = ENTRY_BYTES;
        }
        textEnd[size] = texts.length();
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
            Object entry = item != null ? item
                    : new GraphEvent.Token(context.tag(), context.messageId(), texts.substring(textEnd[i - 1], textEnd[i]));
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
        textEnd = new int[0];
        texts = new StringBuilder(0);
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
            textEnd = Arrays.copyOf(textEnd, size);
        }
        texts.trimToSize();
    }

    boolean ended() {
        return endedAtMillis >= 0;
    }

    long bytes() {
        return bytes;
    }
}
