package io.conduit.stream;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.events.EventSeq;
import io.conduit.runs.events.MessageBlocks;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.TextDelta;
import io.conduit.runs.wire.ProtocolJson;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one place a run's thread-protocol events are made ({@link ProtocolEvents}, {@link ProtocolMessages}): each
 * event's whole wire JSON built by hand into a thread's reused builders (the token path makes no tree), numbered from
 * the run's first seq, stamped with the time its entry was logged, under its namespace. Not thread-safe: one
 * translator's.
 */
final class ProtocolFrames {

    /** A namespace: its log key ({@code a:1|b:2}), its JSON array, and the node it runs (the graph's for a graph's). */
    static final class Namespace {
        final String key;
        final String json;
        final String node;

        Namespace(String key, String json, String node) {
            this.key = key;
            this.json = json;
            this.node = node;
        }
    }

    private final Consumer<RunEvent> out;
    private final String runId;
    private final String graphName;
    private final EventSeq seq;
    /** When the entry being translated was logged, as its events' timestamp ({@link MillisText}). */
    private String nowText;
    private final Map<String, Namespace> graphs = new HashMap<>();
    private final Map<String, Namespace> tasks = new HashMap<>();
    /** The last task's namespace: a model's tokens come one after another from one task, with its tag's own id. */
    private String lastTaskId;
    private Namespace lastTask;
    /**
     * Two builders per thread, not per run: an event is built and turned into its string before the next one starts,
     * and a thread's builders stay in its cache while a run's own went cold between two tokens (at 5,000 streams, each
     * token wrote some 350 bytes into builders no core had touched for a tenth of a second), and a run's builders,
     * grown to its longest message, stayed as long as its log.
     */
    private static final ThreadLocal<Scratch> DATA = ThreadLocal.withInitial(() -> new Scratch(256));
    private static final ThreadLocal<Scratch> EVENT = ThreadLocal.withInitial(() -> new Scratch(512));
    /** Past this a builder is dropped after use rather than kept for the thread's life. */
    private static final int KEPT_CAPACITY = 1 << 16;

    ProtocolFrames(Consumer<RunEvent> out, RunNotice.Began began) {
        this.out = out;
        this.runId = began.run().runId();
        this.graphName = began.graphId();
        this.seq = new EventSeq(began.firstSeq());
    }

    /** The events that follow are of an entry logged at {@code atMillis}. */
    void at(long atMillis) {
        nowText = MillisText.of(atMillis);
    }

    /** The namespace of a graph (the root, or a subgraph's {@code node:task|...}). */
    Namespace graph(String key) {
        Namespace ns = graphs.get(key);
        if (ns == null) {
            StringBuilder json = new StringBuilder("[");
            if (!key.isEmpty()) {
                String[] segments = key.split("\\|");
                for (int i = 0; i < segments.length; i++) {
                    ProtocolJson.quote(i == 0 ? json : json.append(','), segments[i]);
                }
            }
            ns = new Namespace(key, json.append(']').toString(), graphName);
            graphs.put(key, ns);
        }
        return ns;
    }

    /** The namespace of the task an event happened in ({@code <node>:<task id>} below its graph's). */
    Namespace task(GraphEvent.Tag tag) {
        if (tag.node() == null || tag.taskId() == null) {
            return graph(tag.ns());
        }
        if (tag.taskId() == lastTaskId) {
            return lastTask;
        }
        Namespace ns = tasks.get(tag.taskId());
        if (ns == null) {
            String segment = tag.node() + ":" + tag.taskId();
            Namespace parent = graph(tag.ns());
            String json = parent.json.length() == 2 ? "[" + ProtocolJson.quote(new StringBuilder(), segment) + "]"
                    : parent.json.substring(0, parent.json.length() - 1) + "," + ProtocolJson.quote(new StringBuilder(), segment) + "]";
            ns = new Namespace(tag.ns().isEmpty() ? segment : tag.ns() + "|" + segment, json, tag.node());
            tasks.put(tag.taskId(), ns);
        }
        lastTaskId = tag.taskId();
        lastTask = ns;
        return ns;
    }

    /** The builder of an event's data, emptied: filled and handed to an {@code emit} before the next call. */
    StringBuilder data() {
        return DATA.get().emptied();
    }

    /**
     * Writes one event: its whole wire JSON, its seq (also its {@code event_id}) numbered from the run's first seq, its
     * method as the log's mode and its namespace as the log's ns.
     */
    void emit(String method, Namespace ns, String node, CharSequence payload) {
        emit(method, ns, node, payload, null, 0, 0);
    }

    /**
     * A block's delta: {@code head} ends where the delta's JSON string starts. The event carries where the string's
     * body lies ({@link TextDelta}), so that a slow subscriber's consecutive deltas of one block can be merged.
     */
    void emitDelta(Namespace ns, MessageBlocks.Block b, StringBuilder head, String text) {
        int start = head.length() + 1;
        ProtocolJson.quote(head, text);
        int end = head.length() - 1;
        emit(ProtocolEvents.MESSAGES, ns, null, head.append("}}"), b.key(), start, end);
    }

    /**
     * An event whose payload is written only when a subscriber's filter lets it through ({@link RunEvent#later}): a
     * state event's JSON is the largest a run makes, and many clients (a chat page) never ask for it. {@code payload}
     * must read only immutable values.
     */
    void emitLater(String method, Namespace ns, String node, Supplier<String> payload) {
        long s = seq.next();
        String stamp = nowText;
        out.accept(RunEvent.later(s, runId, method, ns.key, () -> {
            StringBuilder b = new StringBuilder(256);
            head(b, Long.toString(s), method, ns, stamp, node);
            return b.append(payload.get()).append("}}").toString();
        }));
    }

    /** {@code key}, {@code start}, {@code end}: the text delta within {@code payload}, when {@code key} is not null. */
    private void emit(String method, Namespace ns, String node, CharSequence payload, String key, int start, int end) {
        long s = seq.next();
        StringBuilder b = EVENT.get().emptied();
        head(b, Long.toString(s), method, ns, nowText, node);
        int at = b.length();
        b.append(payload).append("}}");
        out.accept(new RunEvent(s, runId, method, ns.key, b.toString(), key == null ? null : new TextDelta(key, at + start, at + end)));
    }

    /**
     * An event's JSON up to its data's value. {@code seqText} is written twice: formatted once (numbers are a good part
     * of a delta's cost).
     */
    private static void head(StringBuilder b, String seqText, String method, Namespace ns, String stamp, String node) {
        b.append("{\"type\":\"event\",\"event_id\":\"").append(seqText).append("\",\"seq\":").append(seqText).append(",\"method\":");
        ProtocolJson.quote(b, method).append(",\"params\":{\"namespace\":").append(ns.json).append(",\"timestamp\":").append(stamp);
        if (node != null) {
            ProtocolJson.quote(b.append(",\"node\":"), node);
        }
        b.append(",\"data\":");
    }

    /** One of a thread's builders, emptied for each event. */
    private static final class Scratch {
        private final int initial;
        private StringBuilder builder;

        Scratch(int initial) {
            this.initial = initial;
            this.builder = new StringBuilder(initial);
        }

        StringBuilder emptied() {
            if (builder.capacity() > KEPT_CAPACITY) {
                builder = new StringBuilder(initial);
            }
            builder.setLength(0);
            return builder;
        }
    }
}
