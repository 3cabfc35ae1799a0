package io.conduit.runs.worker;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;

/**
 * Who watches the worker's runs from outside it (metrics, traces, the log context): told when a run is stored here,
 * when it begins, each event its graph streams, and how it ended. The worker knows nothing of what is done with it.
 * Every call is on the run's own path (an event loop): it must not block, and for {@link Watch#event}, which is called
 * for every token, it should allocate nothing.
 */
public interface RunObserver {

    /** Sees nothing: the worker built without observers (unit tests, benchmarks). */
    RunObserver NONE = new RunObserver() {
        @Override
        public Watch began(Run run, String graphId) {
            return Watch.NONE;
        }
    };

    /** A run was stored by a request on this replica (still in that request's context); it is queued. */
    default void created(String runId) {
    }

    /**
     * A pending run was stopped (cancelled, or interrupted by a newer run) before it began, and recorded as
     * {@code interrupted}; it never had a {@link Watch}.
     */
    default void stoppedBeforeStart(Run run, String graphId) {
    }

    /** The run begins executing here; what is returned sees the rest of it. */
    Watch began(Run run, String graphId);

    /** One run's events and end, as the worker sees them. */
    interface Watch {

        Watch NONE = new Watch() {
        };

        /** An event of the run's graph, as it is appended to the thread's log. */
        default void event(GraphEvent e) {
        }

        /** The run ended with this status (recorded, or still being recorded). Called once. */
        default void ended(RunStatus status) {
        }

        /**
         * The run's end is recorded in the store by this worker (not rolled back): what reads the run now finds its
         * final record. {@code error} is the run's error ("Code: message"), null unless it failed or timed out.
         */
        default void recorded(RunStatus status, String error) {
        }

        /** Runs {@code task} with the run's context (its ids in the log lines, its trace span) in place. */
        default void within(Runnable task) {
            task.run();
        }
    }
}
