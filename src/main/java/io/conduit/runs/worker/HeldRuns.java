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
    /** The held runs by thread: almost always one each (two while a stopped run's end is recorded as the next begins). */
    private final Map<String, List<HeldRun>> byThread = new ConcurrentHashMap<>();

    /** Holds the run; false, holding nothing new, when this worker holds it already. */
    boolean hold(HeldRun run) {
        if (held.putIfAbsent(run.run.runId(), run) != null) {
            return false;
        }
        byThread.compute(run.run.threadId(), (t, l) -> l == null ? List.of(run) : append(l, run));
        return true;
    }

    /** Lets the run go, if it is still this one (a run claimed again is a new hold). */
    void release(HeldRun run) {
        if (held.remove(run.run.runId(), run)) {
            byThread.computeIfPresent(run.run.threadId(), (t, l) -> {
                List<HeldRun> rest = l.stream().filter(h -> h != run).toList();
                return rest.isEmpty() ? null : rest;
            });
        }
    }

    private static List<HeldRun> append(List<HeldRun> l, HeldRun run) {
        List<HeldRun> out = new java.util.ArrayList<>(l);
        out.add(run);
        return List.copyOf(out);
    }

    /** The held run, or null. */
    HeldRun get(String runId) {
        return held.get(runId);
    }

    /** Another held run of the same thread (one whose end is still being recorded), or null. */
    HeldRun otherOfThread(HeldRun run) {
        for (HeldRun h : byThread.getOrDefault(run.run.threadId(), List.of())) {
            if (h != run) {
                return h;
            }
        }
        return null;
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
