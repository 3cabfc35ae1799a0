package io.conduit.runs;

import io.smallrye.mutiny.Uni;

/**
 * Stops asked of whichever replica executes a run: a client's cancel, or a newer run's {@code multitask_strategy},
 * that reached a replica other than the run's. Through the database when replicas share one ({@code persistence});
 * absent in a single process, where every run is executed where it is stopped.
 */
public interface RunStops {

    /**
     * Asks every replica to stop {@code runId}, of thread {@code threadId}: the one that executes it stops it; one
     * whose clients wait for it to begin (it was created there) tells them it was stopped, when it was stopped before
     * it began. {@code reason}: how it ends; {@code byRun}: the newer run, or null.
     */
    Uni<Void> ask(String threadId, String runId, String reason, String byRun);

    /** Calls {@code asked} with every stop any replica asks (this one's included). */
    void onAsked(Asked asked);

    @FunctionalInterface
    interface Asked {
        /** {@code threadId} is null when a replica of an earlier version asked. */
        void stop(String threadId, String runId, String reason, String byRun);
    }
}
