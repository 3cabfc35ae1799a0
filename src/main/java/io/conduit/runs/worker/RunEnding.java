package io.conduit.runs.worker;

import static io.conduit.runs.worker.RunExecutor.graphIdOf;
import static io.conduit.runs.worker.StopMessages.stopCode;
import static io.conduit.runs.worker.StopMessages.stopMessage;

import io.conduit.graph.GraphEvent;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.StoreUnavailable;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.Worker;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.worker.RunExecutor.StopReason;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The end of a run this worker holds, as a state machine: finished (or stopped, or failed) → recorded in the store →
 * its clients told → released.
 *
 * <p>A run's end is recorded before its clients are told, so a client that acts on the end finds it recorded. When the
 * store refuses the record (PostgreSQL down), the clients are told at once and the record is tried again, with
 * backoff, until the store takes it: meanwhile the run stays this worker's (its hold renewed, so nobody resumes it)
 * and {@link #unrecordedEnds} makes the replica not ready.
 */
final class RunEnding {

    /** The worker's messages keep their one category, whichever part of it logs them. */
    private static final Logger LOG = Logger.getLogger(RunExecutor.class);
    /** Longest a stopped run waits for its checkpoint writes in flight before it is recorded as ended anyway. */
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

    private final RunStore runs;
    private final ThreadStore threads;
    private final ThreadLogs logs;
    private final Clock clock;
    private final Duration timeout;
    private final Worker worker;
    private final RunExecutor.Timers timers;
    private final HeldRuns held;
    private final ThreadSettlement settlement;
    /** Wakes the claim loop: a released run makes room, and lets the next run of its thread start. */
    private final Runnable wake;
    /** Runs whose end the store refused to record so far: their records are being tried again. */
    private final Set<String> unrecorded = ConcurrentHashMap.newKeySet();

    RunEnding(RunStore runs, ThreadStore threads, ThreadLogs logs, Clock clock, Duration timeout, Worker worker,
              RunExecutor.Timers timers, HeldRuns held, ThreadSettlement settlement, Runnable wake) {
        this.runs = runs;
        this.threads = threads;
        this.logs = logs;
        this.clock = clock;
        this.timeout = timeout;
        this.worker = worker;
        this.timers = timers;
        this.held = held;
        this.settlement = settlement;
        this.wake = wake;
    }

    /**
     * Runs whose end this worker could not record yet because the store refused the write: while there are any, this
     * replica is not ready.
     */
    int unrecordedEnds() {
        return unrecorded.size();
    }

    void stop(HeldRun a, StopReason reason) {
        stop(a, reason, null);
    }

    void stop(HeldRun a, StopReason reason, String byRun) {
        if (a.done || a.stop != null) {
            return;
        }
        a.stoppedBy = byRun;
        a.stop = reason;
        Cancellable s = a.subscription;
        if (s != null) {
            cancelStopped(a, s);
        }
    }

    /**
     * Cancels a stopped run's graph stream and finishes the run once its checkpoints have landed. Called by
     * {@link #stop} when the stream exists, and by the executor when a stop landed while it was subscribing (each
     * writes its own field, then reads the other's: one of the two sees both). Finishing twice is harmless.
     */
    void cancelStopped(HeldRun a, Cancellable s) {
        s.cancel();
        ThreadLog log = logs.find(a.run.threadId());
        // the run's last checkpoints may still be on their way (async durability): the run ends, and the next
        // one starts, when they have landed, so its progress is kept (or rolled back) whole
        a.graph.graph().settled(a.run.threadId()).ifNoItem().after(SETTLE_WAIT).recoverWithItem((Void) null)
                .subscribe().with(v -> finish(a, log), f -> finish(a, log));
    }

    /**
     * Hands the run back (the replica drains): at its next root step boundary ({@link #atStepBoundary}), when its
     * stream would start, or after {@code stepWait} at the latest (the step in flight is then cut, and runs again where
     * the run resumes). A run already ending just ends. Completes once the run is handed back or its end recorded.
     */
    Uni<Void> handBack(HeldRun a, Duration stepWait) {
        if (!a.done && a.stop == null) {
            a.handingBack = true;
            timers.schedule(stepWait, () -> handBackNow(a, "with its step cut after " + stepWait.toMillis() + " ms (drain-step-wait)"));
        }
        return Uni.createFrom().completionStage(a.recorded);
    }

    /** A root step's checkpoint is written (the engine's {@code Values}): a run being handed back goes now. */
    void atStepBoundary(HeldRun a) {
        if (a.handingBack) {
            handBackNow(a, "at a step boundary");
        }
    }

    /**
     * Stops the run where it is and, once its checkpoints have landed, makes it pending again in the store, held by
     * nobody: another worker claims it at once and resumes it from its last checkpoint. Its clients are not told it
     * ended (it did not): their streams end with the drain's reconnect event, and they follow it where it resumes.
     */
    synchronized void handBackNow(HeldRun a, String where) {
        if (!halt(a)) {
            return;
        }
        Uni<Void> settled = a.graph == null ? Uni.createFrom().voidItem()
                : a.graph.graph().settled(a.run.threadId()).ifNoItem().after(SETTLE_WAIT).recoverWithItem((Void) null);
        settled.chain(() -> runs.release(a.run.runId(), worker.id(), clock.instant())).subscribe().with(mine -> {
            if (mine) {
                LOG.infof("Run %s handed back %s, for another worker to resume", a.run.runId(), where);
            }
            held.release(a);
            a.recorded.complete(null);
        }, f -> {
            LOG.warnf("Handing back run %s failed (%s): it is resumed once its lease lapses", a.run.runId(), f.toString());
            held.release(a);
            a.recorded.complete(null);
        });
    }

    /**
     * The run is this worker's no more: its lease lapsed while this process was paused or cut off from the store, and
     * another worker resumed it (or it was deleted). It stops here at once: nothing more of it is written (its fence
     * refuses the writes on their way, {@link WorkerLease#admit}) or recorded (its end is its new holder's), and its
     * clients here follow it where it runs now ({@link ThreadLog#movedAway}).
     */
    synchronized void lost(HeldRun a) {
        a.letGo = true; // its writes still queued are refused, even with the hold fresh by the clock
        if (!halt(a)) {
            return;
        }
        LOG.warnf("Run %s is no longer held by this worker (its lease lapsed while this process was paused or cut off from "
                + "the store, and another worker resumed it; or it was deleted): stopped here, nothing more of it written",
                a.run.runId());
        ThreadLog log = logs.find(a.run.threadId());
        if (log != null) {
            log.movedAway(a.run.runId());
        }
        held.release(a);
        a.recorded.complete(null);
        wake.run();
    }

    /** Stops the run where it is, for an end that records nothing of it here; false if it had ended already. */
    private static boolean halt(HeldRun a) {
        if (a.done) {
            return false;
        }
        a.done = true;
        if (a.timer != null) {
            a.timer.cancel();
        }
        Cancellable s = a.subscription;
        if (s != null) {
            s.cancel();
        }
        a.watch.ended(RunStatus.PENDING); // left unfinished here: its metrics and spans end, the run goes on elsewhere
        return true;
    }

    void fail(HeldRun a, ThreadLog log, Throwable f) {
        LOG.warnf("Run %s failed outside the graph: %s", a.run.runId(), f.toString());
        finishFailed(a, log, "InternalError", "the run could not be executed: " + f.getMessage());
    }

    void finishFailed(HeldRun a, ThreadLog log, String code, String message) {
        a.terminal = new GraphEvent.RunFailed(new GraphEvent.Tag(a.run.runId(), a.run.threadId(), "", null, -1), code, message);
        finish(a, log);
    }

    synchronized void finish(HeldRun a, ThreadLog log) {
        if (a.done) {
            return;
        }
        a.done = true;
        if (a.timer != null) {
            a.timer.cancel();
        }
        RunStatus status;
        GraphEvent t = a.terminal;
        if (a.stop == StopReason.TIMEOUT) {
            status = RunStatus.TIMEOUT;
            String message = "the run took longer than " + timeout.toSeconds() + " s (conduit.runs.timeout)";
            a.error = "TimeoutError: " + message;
            a.say("TimeoutError", message);
        } else if (a.stop != null) {
            status = RunStatus.INTERRUPTED;
            a.say(stopCode(a.stop), stopMessage(a.run, a.stop, a.stoppedBy));
        } else if (t instanceof GraphEvent.RunFailed f) {
            status = RunStatus.ERROR;
            a.error = f.code() + ": " + f.message();
            a.say(f.code(), f.message());
        } else if (t instanceof GraphEvent.Interrupted) {
            status = RunStatus.INTERRUPTED;
        } else {
            status = RunStatus.SUCCESS;
        }
        a.watch.ended(status);
        record(a, log, status, 0);
    }

    /**
     * Records the run's end: its status (or, rolled back, its deletion), then its thread's status, then a temporary
     * thread's deletion. On the first success its clients are told; when the store refuses, they are told at once and
     * the record is tried again with backoff until the store takes it, the run held (and renewed) meanwhile.
     */
    private void record(HeldRun a, ThreadLog log, RunStatus status, int failures) {
        Run run = a.run;
        // a retry writes only what the failed attempt had not: the run's own end is written once
        Uni<Boolean> ended = a.endWritten != null ? Uni.createFrom().item(a.endWritten) : numbered(a, log).chain(() -> a.stop == StopReason.ROLLBACK
                ? rollback(a).chain(() -> runs.delete(run.runId())).replaceWith(true)
                : runs.finish(run.runId(), worker.id(), status, clock.instant())).invoke(mine -> a.endWritten = mine);
        ended.call(mine -> mine ? settlement.settleThread(run.threadId(), status, a.graph).chain(() -> settlement.cleanupTemporary(run)) : Uni.createFrom().voidItem())
                .subscribe().with(mine -> {
                    if (!mine) {
                        LOG.warnf("Run %s was not recorded as %s: it no longer runs under this worker (deleted, or taken over by "
                                + "another worker after this one's hold lapsed, which records it)", run.runId(), status.wire());
                    } else if (failures > 0) {
                        LOG.infof("The end of run %s (%s) is recorded, after %d failed attempt(s)", run.runId(), status.wire(), failures);
                    }
                    if (mine && a.stop != StopReason.ROLLBACK) {
                        a.watch.recorded(status, a.error);
                    }
                    tell(a, log, status);
                    released(a);
                }, f -> {
                    if (a.numbered != null) { // told at once; a run that never began has no event numbers yet: its clients wait
                        tell(a, log, status);
                    }
                    if (!StoreUnavailable.is(f)) {
                        // waiting will not mend it: the hold is let go, so recovery hands the run back once its lease lapses
                        LOG.errorf(f, "Recording the end of run %s (%s) failed; its hold is released and recovery will resume it",
                                run.runId(), status.wire());
                        tell(a, log, status);
                        released(a);
                        return;
                    }
                    if (failures == 0) {
                        LOG.warnf("Recording the end of run %s (%s) failed: %s. Its clients are told now; the record is tried "
                                + "again until the store takes it", run.runId(), status.wire(), f.toString());
                        unrecorded.add(run.runId());
                    }
                    timers.schedule(StoreBackoff.after(failures), () -> record(a, log, status, failures + 1));
                });
    }

    /**
     * A run that ended before it began (stopped, or its thread deleted, while its first write waited for the store)
     * has no event numbers: two are reserved now, for its {@code metadata} and the error that says why it ended.
     */
    private Uni<Void> numbered(HeldRun a, ThreadLog log) {
        if (a.numbered != null || log == null) {
            return Uni.createFrom().voidItem();
        }
        return threads.reserveSeq(a.run.threadId(), 2).invoke(first -> {
            log.append(a.run.runId(), new RunNotice.Began(first, a.run, graphIdOf(a.run), Set.of(), false));
            a.numbered = log;
            a.sayNow();
        }).onFailure(java.util.NoSuchElementException.class).recoverWithNull().replaceWithVoid();
    }

    /**
     * Tells the run's clients it ended, once: the protocol's root end, the classic {@code end} unless it failed or was
     * stopped (those end with their {@code error}), both logs ended.
     */
    private void tell(HeldRun a, ThreadLog log, RunStatus status) {
        if (a.told) {
            return;
        }
        a.told = true;
        // one entry, translated in each format: the protocol's root end, the classic end unless the run failed or was
        // stopped (those end with their error)
        if (a.numbered != null) {
            a.numbered.append(a.run.runId(), new RunNotice.Ended(status, a.error,
                    status != RunStatus.ERROR && status != RunStatus.TIMEOUT && a.stop == null));
        }
        if (log != null) {
            log.end(a.run.runId(), clock.millis());
        }
    }

    /** The run's end is recorded: this worker holds it no more, and the next run of its thread may start. */
    private void released(HeldRun a) {
        unrecorded.remove(a.run.runId());
        held.release(a);
        a.recorded.complete(null);
        wake.run();
    }

    /**
     * Deletes the checkpoints the run wrote. The engine's refusals (no checkpoint yet, a conflict) leave them; a store
     * that refuses the writes fails the record, which is tried again.
     */
    private Uni<Void> rollback(HeldRun a) {
        return ThreadSettlement.rollbackCheckpoints(a.graph, a.run);
    }
}
