package io.conduit.graph;

import io.conduit.kernel.Codec;
import java.util.List;

/**
 * A named slot of the state with a reducer: how the writes of one superstep fold into the value. A channel object
 * is also the typed key to read ({@link State#get}) and write ({@link Update#set}) it. Make them with
 * {@link Channels}.
 *
 * @param <V> the value type
 * @param <U> the type of one write
 */
public abstract class Channel<V, U> {

    private final String name;

    protected Channel(String name) {
        if (name == null || name.isBlank() || name.startsWith("__")) {
            throw new IllegalArgumentException("channel names are non-blank and do not start with __: " + name);
        }
        this.name = name;
    }

    public final String name() {
        return name;
    }

    /** The value before any write. */
    public abstract V empty();

    /** Folds one superstep's writes, in task order, into the current value. */
    public abstract V apply(V current, List<U> writes);

    /**
     * Whether checkpoints store this channel's writes rather than its value. True for append-style channels,
     * whose value grows with the thread while a step adds little to it.
     */
    public boolean storesWrites() {
        return false;
    }

    public abstract Codec<V> valueCodec();

    public abstract Codec<U> writeCodec();

    /** Codec of one step's list of writes, for channels that {@link #storesWrites()}. */
    public abstract Codec<List<U>> writesCodec();

    /**
     * The writes that turn {@code from} into {@code to} through this reducer, used to hand a subgraph's result to
     * its parent; {@code null} when this channel cannot say (the change is then not propagated).
     */
    public abstract List<U> diff(V from, V to);

    /** How many items the value holds; 1 for plain values. */
    public int size(V value) {
        return 1;
    }

    @Override
    public String toString() {
        return name;
    }
}
