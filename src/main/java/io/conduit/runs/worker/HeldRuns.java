package io.conduit.runs.worker;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The runs this worker holds: those it executes, and those it has stopped whose end it has yet to record. Its hold is
 * renewed on these and only these; the claim loop counts them against {@code max-concurrent}.
 */
final class HeldRuns {

    private final Map<String, HeldRun> held = new ConcurrentHashMap<>();

    /** Holds the run; false, holding nothing new, when this worker holds it already. */
    boolean hold(HeldRun run) {
        return held.putIfAbsent(run.run.runId(), run) == null;
    }

    /** Lets the run go, if it is still this one (a run claimed again is a new hold). */
    void release(HeldRun run) {
        held.remove(run.run.runId(), run);
    }

    /** The held run, or null. */
    HeldRun get(String runId) {
        return held.get(runId);
    }

    boolean holds(String runId) {
        return held.containsKey(runId);
    }

    int count() {
        return held.size();
    }

    /** A copy of the held runs. */
    List<HeldRun> all() {
        return List.copyOf(held.values());
    }

    /** A copy of the held runs' ids, for a statement to the store. */
    List<String> ids() {
        return List.copyOf(held.keySet());
    }
}
