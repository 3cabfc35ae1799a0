package io.conduit.bench.soak;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** What the clients counted, shared by every conversation; the first few examples of each kind of fault are kept. */
final class SoakCounts {
    private static final int EXAMPLES = 5;

    final LongAdder conversations = new LongAdder();
    final LongAdder runs = new LongAdder();
    /** Runs followed on a replica other than the one that executed them (the database's worker id says which). */
    final LongAdder crossReplica = new LongAdder();
    final LongAdder tokens = new LongAdder();
    /** AI messages whose streamed text was compared with the thread's final state. */
    final LongAdder messagesChecked = new LongAdder();
    /** Streams that ended without a single AI text chunk (nothing to compare: not counted as lost, shown apart). */
    final LongAdder emptyStreams = new LongAdder();
    /** AI messages whose streamed text differs from the final state's, even when the state is read again. */
    final LongAdder lost = new LongAdder();
    /** Events whose id was not above the previous one on the same stream (a frame repeated, or out of order). */
    final LongAdder repeated = new LongAdder();
    /** States that matched only when read a second time (the state lagged the stream's end). */
    final LongAdder lateState = new LongAdder();
    /** Streams that had not ended long after their run should have (cut by the client; what they missed counts as lost). */
    final LongAdder stuck = new LongAdder();
    final LongAdder secondTurns = new LongAdder();
    final LongAdder deletions = new LongAdder();
    final LongAdder errors = new LongAdder();
    private final Map<String, String> examples = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> examplesPerKind = new ConcurrentHashMap<>();

    void fault(String kind, String what) {
        LongAdder n = examplesPerKind.computeIfAbsent(kind, k -> new LongAdder());
        n.increment();
        if (n.sum() <= EXAMPLES) {
            examples.put(kind + " #" + n.sum(), what.length() > 600 ? what.substring(0, 600) + "..." : what);
        }
    }

    Map<String, String> examples() {
        return new java.util.TreeMap<>(examples);
    }
}
