package io.conduit.graph;

import java.util.ArrayList;
import java.util.List;

/**
 * What a node returns: writes to channels (folded in through each channel's reducer) and, optionally, where the run
 * goes next ({@link #goTo}), in addition to the node's edges. Immutable; each call returns a new update.
 */
public final class Update {

    /** One write to one channel. */
    public record Write(Channel<?, ?> channel, Object value) {
    }

    private static final Update NONE = new Update(List.of(), List.of());

    private final List<Write> writes;
    private final List<String> goTo;

    private Update(List<Write> writes, List<String> goTo) {
        this.writes = writes;
        this.goTo = goTo;
    }

    public static Update none() {
        return NONE;
    }

    public static <U> Update of(Channel<?, U> channel, U value) {
        return NONE.set(channel, value);
    }

    /** Adds a write; for a messages channel, one message. */
    public <U> Update set(Channel<?, U> channel, U value) {
        List<Write> w = new ArrayList<>(writes.size() + 1);
        w.addAll(writes);
        w.add(new Write(channel, value));
        return new Update(List.copyOf(w), goTo);
    }

    /** Adds several writes to one channel, in order. */
    public <U> Update add(Channel<?, U> channel, List<? extends U> values) {
        List<Write> w = new ArrayList<>(writes.size() + values.size());
        w.addAll(writes);
        for (U v : values) {
            w.add(new Write(channel, v));
        }
        return new Update(List.copyOf(w), goTo);
    }

    /** Also runs these nodes next (LangGraph's {@code Command(goto=...)} returned from a node). */
    public Update goTo(String... nodes) {
        List<String> g = new ArrayList<>(goTo);
        g.addAll(List.of(nodes));
        return new Update(writes, List.copyOf(g));
    }

    public List<Write> writes() {
        return writes;
    }

    public List<String> goTo() {
        return goTo;
    }

    public boolean isEmpty() {
        return writes.isEmpty() && goTo.isEmpty();
    }

    @Override
    public String toString() {
        return "Update" + writes + (goTo.isEmpty() ? "" : " goTo " + goTo);
    }
}
