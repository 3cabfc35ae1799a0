package io.conduit.checkpoint;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a graph keeps its threads. Narrow on purpose: stores persist records and answer lookups; rebuilding state
 * from them (reducers, codecs, caching) is the engine's job. Every implementation passes the same contract tests.
 *
 * <p>Namespaces: {@code ""} is the root graph; a subgraph run inside a node gets its own namespace.
 */
public interface Checkpointer {

    /**
     * Stores a checkpoint and makes it the head of its thread and namespace, provided the head is still
     * {@code expectedHead} ({@code null}: the namespace has no checkpoint yet). Otherwise fails with
     * {@link CheckpointConflictException} and stores nothing.
     */
    Uni<Void> put(Checkpoint checkpoint, String expectedHead);

    /** Records writes of tasks of the superstep that follows {@code checkpointId}; re-putting a write replaces it. */
    Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes);

    /**
     * Deletes the pending writes recorded against a checkpoint: once the step after it is stored they only take
     * room, since they serve to resume that step.
     */
    Uni<Void> deleteWrites(String threadId, String ns, String checkpointId);

    /** The head of a namespace, with its pending writes. */
    Uni<Optional<Head>> head(String threadId, String ns);

    /** A given checkpoint, with its pending writes. */
    Uni<Optional<Head>> get(String threadId, String ns, String checkpointId);

    /** What is needed to rebuild the state at a checkpoint. */
    Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId);

    /** Checkpoints of a namespace, newest first, at most {@code limit}, only those older than {@code before} if given. */
    Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before);

    /**
     * Stores the full state at a checkpoint, so that reads need not replay the chain above it. Older snapshots of the
     * namespace are dropped: they only spared reads of old checkpoints, which can replay from further back instead.
     */
    Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values);

    /**
     * Deletes the checkpoints (and their pending writes) of a namespace older than {@code keepFrom}, which must
     * hold a snapshot so the state stays readable. Returns how many checkpoints were deleted.
     */
    Uni<Long> prune(String threadId, String ns, String keepFrom);

    /**
     * Rolls a run back: deletes the checkpoints {@code runId} wrote on a thread, in every namespace, with their
     * pending writes and snapshots, and moves each head that was one of them back to the newest checkpoint of its
     * namespace not written by the run (a namespace left without checkpoints no longer exists). Refuses with
     * {@link IllegalStateException}, deleting nothing, when a checkpoint of another run or an update builds on one of
     * them: its parent would be gone. Meant for a run that has ended; returns how many checkpoints were deleted.
     */
    Uni<Long> deleteRun(String threadId, String runId);

    /** Deletes a thread, every namespace of it. */
    Uni<Void> deleteThread(String threadId);
}
