package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Duration;

/**
 * Whether a new run is accepted, under this replica's limits ({@link LimitsConfig}): the runs it holds (running, or
 * accepted and waiting: past {@code conduit.runs.max-concurrent} a run waits pending, and without this bound the
 * wait would grow without end), and the runs queued on one thread. Refusals are {@link LimitExceededException}s
 * (HTTP 429 with {@code Retry-After}). The counts are read, not reserved: concurrent requests may pass a limit by
 * their number, never more.
 */
public final class RunAdmission {

    public static final String TOO_MANY_RUNS = "too_many_runs";
    public static final String TOO_MANY_QUEUED_RUNS = "too_many_queued_runs";

    private final RunEventLogs logs;
    private final RunStore runs;
    private final int maxActiveRuns;
    private final int maxQueuedPerThread;
    private final Duration retryAfter;

    public RunAdmission(RunEventLogs logs, RunStore runs, int maxActiveRuns, int maxQueuedPerThread, Duration retryAfter) {
        this.logs = logs;
        this.runs = runs;
        this.maxActiveRuns = maxActiveRuns;
        this.maxQueuedPerThread = maxQueuedPerThread;
        this.retryAfter = retryAfter;
    }

    /** Succeeds when a run with {@code strategy} may be created on {@code threadId} (null: a stateless run). */
    public Uni<Void> admit(String threadId, MultitaskStrategy strategy) {
        if (logs.openRuns() >= maxActiveRuns) {
            return Uni.createFrom().failure(new LimitExceededException(TOO_MANY_RUNS,
                    "this replica holds " + maxActiveRuns + " runs, its limit (conduit.limits.max-active-runs); retry later", retryAfter));
        }
        // reject refuses a busy thread itself; interrupt and rollback stop the runs in flight: only enqueue queues
        if (threadId == null || strategy != MultitaskStrategy.ENQUEUE) {
            return Uni.createFrom().voidItem();
        }
        return runs.inflight(threadId).invoke(inflight -> {
            long waiting = inflight.stream().filter(r -> r.status() == RunStatus.PENDING).count();
            if (waiting >= maxQueuedPerThread) {
                throw new LimitExceededException(TOO_MANY_QUEUED_RUNS, "thread " + threadId + " has " + waiting
                        + " runs waiting, its limit (conduit.limits.max-queued-runs-per-thread); retry later", retryAfter);
            }
        }).replaceWithVoid();
    }
}
