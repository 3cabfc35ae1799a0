package io.conduit.runs;

import java.util.Comparator;
import java.util.Objects;

/** What every run store does to a run it is given to create, so that all of them return the same record. */
public final class Runs {

    /** Claim order: oldest first, the run id breaking ties. */
    public static final Comparator<Run> OLDEST_FIRST = Comparator.comparing(Run::createdAt).thenComparing(Run::runId);

    private Runs() {
    }

    /**
     * Pending, held by no worker, JSON maps copied; no {@code updatedAt} means the creation time, and no
     * {@code notBefore} means "at once" (the creation time too); the default strategy is enqueue.
     */
    public static Run asCreated(Run run) {
        Objects.requireNonNull(run.runId(), "runId");
        Objects.requireNonNull(run.threadId(), "threadId");
        Objects.requireNonNull(run.createdAt(), "createdAt");
        return new Run(run.runId(), run.threadId(), run.assistantId(), RunStatus.PENDING, JsonMaps.copy(run.metadata()),
                run.multitaskStrategy() == null ? MultitaskStrategy.ENQUEUE : run.multitaskStrategy(), RunSpecJson.copy(run.spec()),
                run.createdAt(), run.updatedAt() == null ? run.createdAt() : run.updatedAt(),
                run.notBefore() == null ? run.createdAt() : run.notBefore(), null);
    }

    /** A run id given twice: a caller's bug, as ids are generated. */
    public static IllegalArgumentException exists(String runId) {
        return new IllegalArgumentException("run " + runId + " already exists");
    }
}
