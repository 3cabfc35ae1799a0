package io.conduit.graph;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointChain;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.checkpoint.Stored;
import io.conduit.kernel.Codec;
import io.smallrye.mutiny.Uni;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the state at a checkpoint: the nearest snapshot plus the writes since, through the reducers. Keeps the
 * state of each thread's newest checkpoint (per namespace) in an LRU cache of threads; a checkpoint never changes once written, so a cached
 * entry is valid for as long as its id is the one asked for, whoever else writes to the store.
 */
final class StateLoader {

    private final StateSchema schema;
    private final Checkpointer store;
    /** Thread id, then namespace: a thread's deletion forgets its entries without a scan of the cache. */
    private final Map<String, Map<String, Cached>> cache;

    /** Namespaces cached per thread: a subgraph's namespace is new for each task that runs it. */
    private static final int NAMESPACES_PER_THREAD = 8;

    private record Cached(String checkpointId, State state) {
    }

    StateLoader(StateSchema schema, Checkpointer store, int cacheSize) {
        this.schema = schema;
        this.store = store;
        this.cache = lru(cacheSize);
    }

    private static <V> Map<String, V> lru(int size) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > size;
            }
        };
    }

    Uni<State> load(Checkpoint cp) {
        synchronized (cache) {
            Map<String, Cached> thread = cache.get(cp.threadId());
            Cached c = thread == null ? null : thread.get(cp.ns());
            if (c != null && c.checkpointId.equals(cp.id())) {
                return Uni.createFrom().item(c.state);
            }
        }
        return store.chain(cp.threadId(), cp.ns(), cp.id()).map(chain -> {
            if (chain.isEmpty()) {
                throw new GraphException(GraphException.Code.UNKNOWN_THREAD, "checkpoint " + cp.id() + " of thread " + cp.threadId() + " is gone");
            }
            return replay(chain.get());
        });
    }

    void remember(Checkpoint cp, State state) {
        synchronized (cache) {
            cache.computeIfAbsent(cp.threadId(), t -> lru(NAMESPACES_PER_THREAD)).put(cp.ns(), new Cached(cp.id(), state));
        }
    }

    void forget(String threadId) {
        synchronized (cache) {
            cache.remove(threadId);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    State replay(CheckpointChain chain) {
        String thread = chain.target().threadId();
        Object[] values = schema.initialState().copyValues();
        for (Map.Entry<String, Stored> e : chain.base().entrySet()) {
            int i = indexOrFail(e.getKey(), thread, chain.target().id());
            values[i] = decode(e.getValue(), schema.channels().get(i).valueCodec(), e.getKey(), thread);
        }
        for (Checkpoint cp : chain.since()) {
            for (Map.Entry<String, Stored> e : cp.values().entrySet()) {
                int i = indexOrFail(e.getKey(), thread, cp.id());
                values[i] = decode(e.getValue(), schema.channels().get(i).valueCodec(), e.getKey(), thread);
            }
            for (Map.Entry<String, Stored> e : cp.deltas().entrySet()) {
                int i = indexOrFail(e.getKey(), thread, cp.id());
                Channel ch = schema.channels().get(i);
                List writes = (List) decode(e.getValue(), ch.writesCodec(), e.getKey(), thread);
                values[i] = ch.apply(values[i], writes);
            }
        }
        return new State(schema, values);
    }

    private int indexOrFail(String channel, String thread, String checkpointId) {
        int i = schema.indexOf(channel);
        if (i < 0) {
            throw new GraphException(GraphException.Code.STATE_CORRUPTED, "thread " + thread + ", checkpoint " + checkpointId
                    + ": stored channel " + channel + " is not declared by this graph");
        }
        return i;
    }

    private static <T> T decode(Stored stored, Codec<T> codec, String channel, String thread) {
        try {
            return stored.decode(codec);
        } catch (RuntimeException e) {
            throw new GraphException(GraphException.Code.STATE_CORRUPTED, "thread " + thread + ": channel " + channel
                    + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** Every channel's value, to store as a snapshot. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Map<String, Stored> snapshotOf(State state) {
        Map<String, Stored> out = new LinkedHashMap<>();
        List<Channel<?, ?>> channels = state.schema().channels();
        for (int i = 0; i < channels.size(); i++) {
            Channel ch = channels.get(i);
            out.put(ch.name(), Stored.live(state.valueAt(i), ch.valueCodec()));
        }
        return out;
    }

}
