package io.conduit.checkpoint;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A store that hands every call to another: a decorator overrides the calls it watches (the service's metered store;
 * tests and benchmarks watch or break some).
 */
public abstract class ForwardingCheckpointer implements Checkpointer {

    protected final Checkpointer store;

    protected ForwardingCheckpointer(Checkpointer store) {
        this.store = store;
    }

    @Override
    public Uni<Void> put(Checkpoint checkpoint, String expectedHead) {
        return store.put(checkpoint, expectedHead);
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        return store.putWrites(threadId, ns, checkpointId, writes);
    }

    @Override
    public Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        return store.deleteWrites(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Optional<Head>> head(String threadId, String ns) {
        return store.head(threadId, ns);
    }

    @Override
    public Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        return store.get(threadId, ns, checkpointId);
    }

    @Override
    public Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        return store.chain(threadId, ns, checkpointId);
    }

    @Override
    public Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        return store.list(threadId, ns, limit, before);
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        return store.putSnapshot(threadId, ns, checkpointId, values);
    }

    @Override
    public Uni<Long> prune(String threadId, String ns, String keepFrom) {
        return store.prune(threadId, ns, keepFrom);
    }

    @Override
    public Uni<Long> deleteRun(String threadId, String runId) {
        return store.deleteRun(threadId, runId);
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return store.deleteThread(threadId);
    }
}
