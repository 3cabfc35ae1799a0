package io.conduit.runs.worker;

import static io.conduit.runs.worker.RunExecutor.graphIdOf;
import static io.conduit.runs.worker.StopMessages.stopCode;
import static io.conduit.runs.worker.StopMessages.stopMessage;

import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.RunStops;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.worker.RunExecutor.StopReason;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Set;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Stopping a run from outside: a client's cancel, or a newer run's {@code multitask_strategy} (interrupt or rollback).
 * A run this worker executes is stopped here and ends through {@link RunEnding}; a pending one never starts.
 */
final class RunCancellation {

    private static final Logger LOG = Logger.getLogger(RunCancellation.class);

    private final RunStore runs;
    private final ThreadStore threads;
    private final Function<String, RegisteredGraph> graphs;
    private final ThreadLogs logs;
    private final Clock clock;
    private final HeldRuns held;
    private final RunEnding ending;
    private final ThreadSettlement settlement;
    private final WorkerLease lease;
    /** Wakes the claim loop once the stop is done with the store. */
    private final Runnable wake;
    private final RunObserver observer;
    /** Stops for runs other replicas execute; null in a single process. */
    private volatile RunStops remote;
    /** Runs whose stop was asked of another replica, until their end is recorded (a cancel that waits, waits for it). */
    private final Set<String> askedElsewhere = java.util.concurrent.ConcurrentHashMap.newKeySet();

    RunCancellation(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, ThreadLogs logs, Clock clock,
                    HeldRuns held, RunEnding ending, ThreadSettlement settlement, WorkerLease lease, Runnable wake,
                    RunObserver observer) {
        this.observer = observer;
        this.runs = runs;
        this.threads = threads;
        this.graphs = graphs;
        this.logs = logs;
        this.clock = clock;
        this.held = held;
        this.ending = ending;
        this.settlement = settlement;
        this.lease = lease;
        this.wake = wake;
    }

    /** See {@link RunExecutor#cancel(Run, StopReason, String)}. */
    Uni<Boolean> cancel(Run run, StopReason reason, String byRun) {
        HeldRun a = held.get(run.runId());
        if (a != null) {
            // a hold this process has not renewed lately (it was paused) may be another worker's now: then the stop
            // is that worker's to make
            return lease.confirm(a).chain(mine -> {
                if (mine) {
                    ending.stop(a, reason, byRun);
                    return Uni.createFrom().item(true);
                }
                return askElsewhere(run, reason, byRun);
            });
        }
        return runs.cancelPending(run.runId(), clock.instant()).chain(wasPending -> {
            if (wasPending) {
                return stoppedBeforeStart(run, reason, byRun).replaceWith(true);
            }
            if (run.status() != RunStatus.RUNNING && run.status() != RunStatus.PENDING) {
                return Uni.createFrom().item(false);
            }
            // running, but not here: held by a worker that is gone (then recovery makes it pending, and it is stopped as
            // such), or claimed here meanwhile, or running on another replica (not ours to stop)
            // (the worker is woken only after the second cancelPending, so it does not claim the run back in between)
            return lease.recover().chain(found -> runs.cancelPending(run.runId(), clock.instant())).chain(now -> {
                if (now) {
                    return stoppedBeforeStart(run, reason, byRun).replaceWith(true);
                }
                HeldRun claimed = held.get(run.runId()); // claimed here meanwhile (a poll of the worker)
                if (claimed != null) {
                    ending.stop(claimed, reason, byRun);
                    return Uni.createFrom().item(true);
                }
                return askElsewhere(run, reason, byRun);
            }).eventually(wake);
        });
    }

    /** Asks the replica that executes the run to stop it; false in a single process. */
    private Uni<Boolean> askElsewhere(Run run, StopReason reason, String byRun) {
        RunStops stops = remote;
        if (stops == null) {
            return Uni.createFrom().item(false);
        }
        if (askedElsewhere.size() >= 10_000) {
            askedElsewhere.clear(); // cancels that did not wait leave their run here; a wait forgotten reads the record as it is
        }
        askedElsewhere.add(run.runId());
        return stops.ask(run.threadId(), run.runId(), reason.name(), byRun).replaceWith(true);
    }

    /** Stops asked by other replicas reach the runs held here; stops of runs held elsewhere are asked of them. */
    void share(RunStops stops) {
        stops.onAsked((threadId, runId, reason, byRun) -> {
            HeldRun a = held.get(runId);
            StopReason why = StopReason.valueOf(reason);
            if (a != null) {
                // a run let go here (it is another worker's now) is stopped by that worker, which was asked too
                lease.confirm(a).subscribe().with(mine -> {
                    if (mine) {
                        ending.stop(a, why, byRun);
                    }
                });
            } else if (threadId != null) {
                stoppedElsewhereBeforeStart(threadId, runId, why, byRun);
            }
        });
        remote = stops;
    }

    /**
     * Completes once the end of a run whose stop was asked of another replica is recorded: looked up every
     * {@code every}, for at most {@code atMost} (then the run's lease decides; the caller reads the record as it is).
     */
    Uni<Void> recordedElsewhere(String runId, java.time.Duration every, java.time.Duration atMost) {
        if (!askedElsewhere.contains(runId)) {
            return Uni.createFrom().voidItem();
        }
        return runs.get(runId)
                .onItem().transformToUni(found -> found.isEmpty() || found.get().status().finished() ? Uni.createFrom().item(true)
                        : Uni.createFrom().item(false).onItem().delayIt().by(every))
                .repeat().until(finished -> finished).collect().last()
                .ifNoItem().after(atMost).recoverWithItem(false)
                .eventually(() -> askedElsewhere.remove(runId)).replaceWithVoid();
    }

    /** The run's clients here get the {@code metadata} event and the error that says why it stopped; its segment ends. */
    private Uni<Void> told(ThreadLog log, Run run, StopReason reason, String byRun) {
        return threads.reserveSeq(run.threadId(), 2).onFailure().recoverWithNull().invoke(first -> {
            if (first != null) {
                log.append(run.runId(), new RunNotice.Began(first, run, graphIdOf(run), Set.of(), false));
                log.append(run.runId(), new RunNotice.Said(stopCode(reason), stopMessage(run, reason, byRun)));
            }
            log.end(run.runId(), clock.millis());
        }).replaceWithVoid();
    }

    /**
     * Another replica stopped a run before it began: when it was created here, its clients here wait for it to begin
     * (its segment is open and empty), and are told as that replica's are. A run that began somewhere is not this
     * replica's to end (its executor's relay ends it), so the record must say it ended; one rolled back has none.
     */
    private void stoppedElsewhereBeforeStart(String threadId, String runId, StopReason reason, String byRun) {
        ThreadLog log = logs.find(threadId);
        if (log == null || !log.awaitsBegin(runId)) {
            return;
        }
        runs.get(runId).subscribe().with(found -> {
            if (found.isEmpty()) {
                log.end(runId, clock.millis());
            } else if (found.get().status().finished()) {
                told(log, found.get(), reason, byRun).subscribe().with(x -> { }, f -> { });
            }
        }, f -> LOG.debugf("Run %s, stopped elsewhere: its record could not be read (%s)", runId, f.toString()));
    }

    /**
     * A run stopped before it started: its clients (the request that created it, those that joined it) get the
     * {@code metadata} event and the error that says why, then its stream ends; its thread's status is settled.
     */
    private Uni<Void> stoppedBeforeStart(Run run, StopReason reason, String byRun) {
        ThreadLog log = logs.find(run.threadId());
        Uni<Void> told = log == null || !log.holds(run.runId()) ? Uni.createFrom().voidItem() : told(log, run, reason, byRun);
        RunStops stops = remote;
        if (stops != null) { // the replica that created the run may hold its clients, waiting for it to begin
            told = told.chain(() -> stops.ask(run.threadId(), run.runId(), reason.name(), byRun).onFailure().recoverWithNull());
        }
        RegisteredGraph g = graphs.apply(graphIdOf(run));
        // rolled back: its record goes, and the checkpoints of a first life (a run a dead process had begun) with it
        Uni<?> cleanup = reason != StopReason.ROLLBACK ? Uni.createFrom().voidItem()
                : ThreadSettlement.rollbackCheckpoints(g, run).chain(() -> runs.delete(run.runId()));
        return told.chain(() -> cleanup).chain(() -> settlement.settleThread(run.threadId(), null, g)).invoke(() -> {
            if (reason != StopReason.ROLLBACK) {
                observer.stoppedBeforeStart(run, g == null ? graphIdOf(run) : g.graphId());
            }
        });
    }
}
