package io.conduit.runs;

/**
 * A run that a live worker of another replica executes: only that replica can stop it (cross-replica cancel comes
 * with the shared event log). Answered 409 {@code run_on_another_replica}.
 */
public class RunElsewhereException extends RuntimeException {
    public RunElsewhereException(Run run) {
        super("Run " + run.runId() + " is executing on another replica (worker " + run.workerId() + "); cancel it there");
    }
}
