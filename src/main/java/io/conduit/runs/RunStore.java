package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Collection;
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
     * Claims the oldest pending runs whose {@code notBefore} has passed and whose threads have no running run, at most
     * {@code limit} and at most one per thread (each thread's oldest): they become {@code running}, held by
     * {@code workerId}. Oldest first; empty when there is nothing to claim.
     */
    Uni<List<Run>> claim(String workerId, Instant now, int limit);

    /** {@link #claim} of one run. */
    default Uni<Optional<Run>> claimNext(String workerId, Instant now) {
        return claim(workerId, now, 1).map(found -> found.stream().findFirst());
    }

    Uni<Optional<Run>> get(String runId);

    /** A thread's runs, newest first; {@code status} null for all. */
    Uni<List<Run>> listByThread(String threadId, int limit, int offset, RunStatus status);

    /** The thread's pending and running runs, oldest first. */
    Uni<List<Run>> inflight(String threadId);

    /**
     * How many runs are in flight (pending or running) whose metadata names {@code owner} as its {@code owner} (the
     * principal that asked for it; {@link io.conduit.auth.Principal#OWNER}); with {@code owner} null, every run in
     * flight. What the limit of runs per principal counts, on every replica alike.
     */
    Uni<Integer> countInflight(String owner);

    /**
     * Records how a running run ended, if {@code workerId} still holds it: false when the run does not exist, has
     * already finished, or is held by another worker (its hold lapsed and another took it over: that one records it).
     */
    Uni<Boolean> finish(String runId, String workerId, RunStatus status, Instant at);

    /**
     * Hands a running run back (a replica that drains on shutdown): if {@code workerId} still holds it, it becomes
     * {@code pending} with no holder, to be claimed at once by any worker and resumed from its last checkpoint, instead
     * of waiting for its lease to lapse. False when the run does not exist, is not running, or is another worker's.
     */
    Uni<Boolean> release(String runId, String workerId, Instant at);

    /** A pending run becomes {@code interrupted} without running; false when it was not pending. */
    Uni<Boolean> cancelPending(String runId, Instant at);

    Uni<Boolean> delete(String runId);

    /** Deletes every run of a thread (when the thread is deleted). */
    Uni<Void> deleteThread(String threadId);

    /**
     * A worker's hold on the runs it is executing, {@code runIds}: of those still running and held by
     * {@code workerId}, {@code updatedAt} becomes {@code at}. A worker renews it more often than the lease, so a run
     * whose {@code updatedAt} is older than that was held by a process that died. A run of {@code workerId} that is not
     * among {@code runIds} is not renewed: a worker never holds a run it is not executing. Returns the ids it renewed:
     * one of {@code runIds} missing there is the worker's no more (its lease lapsed and another worker took it). Also a
     * write that tells whether the store takes writes at all (readiness).
     */
    Uni<List<String>> renew(String workerId, Collection<String> runIds, Instant at);

    /**
     * Recovery: runs left {@code running} by a worker that is not executing them become pending again, so a worker
     * resumes them from their last checkpoint. Those are: the runs of an earlier incarnation of {@code live}'s replica
     * (see {@link Worker}), at once; and any run whose hold has not been renewed since {@code staleBefore}, {@code live}'s
     * own included (a claim whose answer was lost on the way leaves it one it does not know it holds). The runs
     * {@code live} holds, {@code held}, and those of other workers that renew, are left alone. Returns the requeued
     * runs, oldest first.
     */
    Uni<List<Run>> requeueOrphans(Worker live, Collection<String> held, Instant staleBefore, Instant at);
}
