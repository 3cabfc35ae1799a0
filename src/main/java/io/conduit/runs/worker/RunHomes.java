package io.conduit.runs.worker;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Runs created here whose worker has not started them yet, and where each should start (see
 * {@link RunExecutor.Placement}).
 */
final class RunHomes {

    private static final int MAX_HOMES = 100_000;

    private final Map<String, Executor> homes = new ConcurrentHashMap<>();

    /** A run stored by a request that came in at {@code home}; null: it starts wherever it is claimed. */
    void remember(String runId, Executor home) {
        if (home != null) {
            if (homes.size() >= MAX_HOMES) {
                homes.clear(); // runs claimed by other replicas never start here; a forgotten home costs one hop, nothing else
            }
            homes.put(runId, home);
        }
    }

    /** Where the run should start, forgotten once asked; null: where it was claimed. */
    Executor take(String runId) {
        return homes.remove(runId);
    }
}
