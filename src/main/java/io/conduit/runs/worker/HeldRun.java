package io.conduit.runs.worker;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.graphs.RegisteredGraph;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** A run this worker holds: one it executes, or one it has stopped whose end it has yet to record. */
final class HeldRun {

    final Run run;
    final RegisteredGraph graph;
    volatile Cancellable subscription;
    volatile Cancellable timer;
    volatile GraphEvent terminal;
    volatile RunExecutor.StopReason stop;
    /** The newer run that stopped this one ({@code multitask_strategy} interrupt or rollback); null: a client's cancel. */
    volatile String stoppedBy;
    volatile boolean done;
    /** Completes once the run's end is recorded (or found to be another worker's to record). */
    final CompletableFuture<Void> recorded = new CompletableFuture<>();
    /** The thread's log, once the run has event numbers (its {@link RunNotice.Began} is logged there); null before. */
    volatile ThreadLog numbered;
    /** Why it failed, said by the protocol's root {@code failed}. */
    volatile String error;
    /** The classic error to say once the run has event numbers (it ended before it began). */
    private String unsaidCode;
    private String unsaidMessage;
    volatile boolean told;
    /** The replica drains: the run is handed back at its next step boundary (see {@link RunEnding#handBack}). */
    volatile boolean handingBack;
    /** Whether the store took the run's own end (null: not written yet; false: the run was no longer this worker's). */
    volatile Boolean endWritten;
    /** When the store last gave this worker the run (its claim, then each renewal): what its fence trusts. */
    volatile Instant heldAt;
    /** Found to be another worker's ({@link RunEnding#lost}): its fence refuses every write from then on. */
    volatile boolean letGo;
    /** What watches the run from outside the worker (metrics, traces, its log context). */
    volatile RunObserver.Watch watch = RunObserver.Watch.NONE;

    HeldRun(Run run, RegisteredGraph graph) {
        this.run = run;
        this.graph = graph;
        this.heldAt = run.updatedAt() != null ? run.updatedAt() : Instant.EPOCH; // the claim's time (none: ask the store)
    }

    /** The classic {@code error} event the run ends with: now, or once it has event numbers ({@link #sayNow}). */
    void say(String code, String message) {
        if (numbered != null) {
            numbered.append(run.runId(), new RunNotice.Said(code, message));
        } else {
            unsaidCode = code;
            unsaidMessage = message;
        }
    }

    void sayNow() {
        if (unsaidCode != null) {
            numbered.append(run.runId(), new RunNotice.Said(unsaidCode, unsaidMessage));
        }
    }
}
