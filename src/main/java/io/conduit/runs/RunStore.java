package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Run records. The store, not the caller, guarantees that a thread has at most one {@code running} run (in Postgres
 * with a partial unique index), so several workers (or replicas) may claim concurrently.
 */
public interface RunStore {

    /**
     * Inserts a pending run. With {@link MultitaskStrategy#REJECT} it fails with {@link ThreadBusyException} when the
     * thread has a pending or running run, atomically (two concurrent rejects: exactly one wins). The other
     * strategies always insert; acting on the runs in flight is the caller's job.
     */
    Uni<Run> create(Run run);

    /**
     * Claims the oldest pending run whose {@code notBefore} has passed and whose thread has no running run: it becomes
     * {@code running}, held by {@code workerId}. Empty when there is nothing to claim.
     */
    Uni<Optional<Run>> claimNext(String workerId, Instant now);

    Uni<Optional<Run>> get(String runId);

    /** A thread's runs, newest first; {@code status} null for all. */
    Uni<List<Run>> listByThread(String threadId, int limit, int offset, RunStatus status);

    /** The thread's pending and running runs, oldest first. */
    Uni<List<Run>> inflight(String threadId);

    /** Moves a run to {@code status}; false when the run does not exist or has already finished. */
    Uni<Boolean> setStatus(String runId, RunStatus status, Instant at);

    /** A pending run becomes {@code interrupted} without running; false when it was not pending. */
    Uni<Boolean> cancelPending(String runId, Instant at);

    Uni<Boolean> delete(String runId);

    /** Deletes every run of a thread (when the thread is deleted). */
    Uni<Void> deleteThread(String threadId);

    /**
     * A worker's hold on its running runs: their {@code updatedAt} becomes {@code at}. A worker renews it more often
     * than the lease, so a run whose {@code updatedAt} is older than that was held by a process that died. Returns
     * how many runs it holds.
     */
    Uni<Integer> renew(String workerId, Instant at);

    /**
     * Recovery: runs left {@code running} by a worker other than {@code liveWorkerId} that has not renewed its hold
     * since {@code staleBefore} (a process that died) become pending again, so a worker resumes them from their last
     * checkpoint. Returns them, oldest first.
     */
    Uni<List<Run>> requeueOrphans(String liveWorkerId, Instant staleBefore, Instant at);

    /** {@link #requeueOrphans(String, Instant, Instant)} of every other worker's run, however recently renewed. */
    default Uni<List<Run>> requeueOrphans(String liveWorkerId, Instant at) {
        return requeueOrphans(liveWorkerId, at, at);
    }
}
