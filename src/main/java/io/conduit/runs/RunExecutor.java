package io.conduit.runs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.GraphException;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateSnapshot;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The worker: claims pending runs from the {@link RunStore} (the store guarantees one running run per thread),
 * executes each on its graph, writes its events to the thread's event log, and records how it ended. Nothing here
 * waits for a client: HTTP requests only create runs and subscribe to logs. {@link #wake} is called when a run is
 * created or ends, and periodically (delayed runs, other replicas' work).
 *
 * <p>A run's end is recorded before its clients are told, so a client that acts on the end finds it recorded. When the
 * store refuses the record (PostgreSQL down), the clients are told at once and the record is tried again, with
 * backoff, until the store takes it: meanwhile the run stays this worker's (its hold renewed, so nobody resumes it)
 * and {@link #unrecordedEnds} makes the replica not ready. A worker renews its hold only on the runs it executes or
 * has yet to record.
 */
public final class RunExecutor {

    private static final Logger LOG = Logger.getLogger(RunExecutor.class);
    /** Event numbers reserved per run: a run never needs more, and unused numbers cost nothing. */
    static final int SEQ_BLOCK = 1 << 24;
    /** Longest a stopped run waits for its checkpoint writes in flight before it is recorded as ended anyway. */
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

    /** Why a run was stopped from outside. */
    public enum StopReason { INTERRUPT, ROLLBACK, TIMEOUT }

    /** The longest wait between two attempts to record a run's end while the store refuses writes. */
    private static final Duration MAX_RECORD_BACKOFF = Duration.ofSeconds(5);

    /**
     * Runs a task once after a delay; cancelling must forget the task at once. Every run arms one for its timeout
     * and almost always cancels it: a scheduler that keeps cancelled tasks until they are due (Mutiny's default
     * executor, for {@code delayIt}) would hold one per run for the whole timeout, an hour by default.
     */
    @FunctionalInterface
    public interface Timers {
        Cancellable schedule(Duration delay, Runnable task);
    }

    /**
     * Where the caller runs (its event loop), as a place to start a run: null off an event loop. A run starts where
     * the request that created it came in, because its first subscribers (the WebSocket that sent {@code run.start},
     * the {@code runs/stream} request) live there: its events then reach their sockets without a hop between threads
     * and a wake-up of another loop for every token. Without it, a run started where the claim loop happened to be.
     */
    @FunctionalInterface
    public interface Placement {
        Executor here();
    }

    /** Runs created here whose worker has not started them yet, and where each should start. */
    private final Map<String, Executor> homes = new ConcurrentHashMap<>();
    private static final int MAX_HOMES = 100_000;

    private final RunStore runs;
    private final ThreadStore threads;
    private final Function<String, RegisteredGraph> graphs;
    private final RunEventLogs logs;
    private final ProtocolEventLogs protocolLogs;
    private final Clock clock;
    private final Duration timeout;
    private final int maxConcurrent;
    private final Duration lease;
    private final Worker worker;
    /** Whether this replica's port is bound: until then no other live process is proven not to share its id. */
    private volatile boolean replicaProven;
    /** The runs this worker holds: those it executes, and those it has stopped whose end it has yet to record. */
    private final Map<String, Active> active = new ConcurrentHashMap<>();
    /** Runs whose end the store refused to record so far: their records are being tried again. */
    private final Set<String> unrecorded = ConcurrentHashMap.newKeySet();
    private final AtomicInteger wip = new AtomicInteger();
    private int startsInARow; // only the claim loop touches it, and wip keeps that loop single
    private final Timers timers;
    private final Placement placement;

    private static final class Active {
        final Run run;
        final RegisteredGraph graph;
        volatile Cancellable subscription;
        volatile Cancellable timer;
        volatile GraphEvent terminal;
        volatile StopReason stop;
        /** The newer run that stopped this one ({@code multitask_strategy} interrupt or rollback); null: a client's cancel. */
        volatile String stoppedBy;
        volatile boolean done;
        /** Completes once the run's end is recorded (or found to be another worker's to record). */
        final CompletableFuture<Void> recorded = new CompletableFuture<>();
        LangGraphEvents events;
        ProtocolEvents protocol;
        /** Why it failed, said by the protocol's root {@code failed}. */
        volatile String error;
        /** The classic error to say once the run has event numbers (it ended before it began). */
        private String unsaidCode;
        private String unsaidMessage;
        volatile boolean told;
        /** Whether the store took the run's own end (null: not written yet; false: the run was no longer this worker's). */
        volatile Boolean endWritten;

        Active(Run run, RegisteredGraph graph) {
            this.run = run;
            this.graph = graph;
        }

        /** The classic {@code error} event the run ends with: now, or once it has event numbers ({@link #sayNow}). */
        void say(String code, String message) {
            if (events != null) {
                events.error(code, message);
            } else {
                unsaidCode = code;
                unsaidMessage = message;
            }
        }

        void sayNow() {
            if (unsaidCode != null) {
                events.error(unsaidCode, unsaidMessage);
            }
        }
    }

    /**
     * @param worker who this worker is: its replica and this incarnation (see {@link Worker})
     * @param lease  how long a run stays held by a worker that stopped renewing its hold (see {@link #heartbeat}): past
     *               it, the worker is taken for dead and its runs are resumed by another
     */
    public RunExecutor(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, RunEventLogs logs,
                       ProtocolEventLogs protocolLogs, Clock clock, Duration timeout, int maxConcurrent, Worker worker, Duration lease,
                       Timers timers, Placement placement) {
        this.worker = worker;
        this.placement = placement;
        this.protocolLogs = protocolLogs;
        this.lease = lease;
        this.timers = timers;
        this.runs = runs;
        this.threads = threads;
        this.graphs = graphs;
        this.logs = logs;
        this.clock = clock;
        this.timeout = timeout;
        this.maxConcurrent = maxConcurrent;
    }

    public String workerId() {
        return worker.id();
    }

    /** Where the caller is, to hand to {@link #created} once its run is stored. */
    public Executor here() {
        return placement.here();
    }

    /**
     * A run stored by a request that came in at {@code home} (from {@link #here()}): it will start there if this worker
     * claims it. Then wakes the worker.
     */
    public void created(String runId, Executor home) {
        if (home != null) {
            if (homes.size() >= MAX_HOMES) {
                homes.clear(); // runs claimed by other replicas never start here; a forgotten home costs one hop, nothing else
            }
            homes.put(runId, home);
        }
        wake();
    }

    /** Claims and starts what can run now. Cheap to call often: concurrent calls fold into one claim loop. */
    public void wake() {
        if (wip.getAndIncrement() == 0) {
            claim();
        }
    }

    private void claim() {
        int seen = wip.get();
        if (active.size() >= maxConcurrent) {
            wip.set(0); // a run that ends wakes the loop again
            return;
        }
        runs.claimNext(worker.id(), clock.instant()).subscribe().with(found -> {
            if (found.isPresent()) {
                start(found.get());
                // a burst of pending runs must not start in one synchronous recursion: with thousands (a streaming
                // load) it held the event loop for seconds and the worker stopped claiming; so hop through the
                // event loop every few starts
                if (++startsInARow % 16 == 0) {
                    timers.schedule(Duration.ZERO, this::claim);
                } else {
                    claim();
                }
            } else {
                startsInARow = 0;
                if (!wip.compareAndSet(seen, 0)) {
                    claim(); // woken while claiming: look again
                }
            }
        }, failure -> {
            LOG.warnf("Claiming runs failed (%s); the next wake-up tries again", failure.toString());
            wip.set(0);
        });
    }

    /**
     * Recovery, at start-up and on every {@link #heartbeat}: runs left running by a worker that is gone are queued
     * again, to be resumed from their checkpoints. Gone is an earlier incarnation of this replica (a restart after a
     * crash takes its runs back at once), or any worker that has not renewed its hold for a lease (a process that died;
     * a live one renews far more often). Runs of live workers, on other replicas, are left alone.
     */
    public Uni<List<Run>> recover() {
        Instant now = clock.instant();
        return runs.requeueOrphans(replicaProven ? worker : worker.unproven(), List.copyOf(active.keySet()), now.minus(lease), now)
                .invoke(found -> {
            if (!found.isEmpty()) {
                LOG.infof("Resuming %d run(s) left running by a stopped process", found.size());
            }
        });
    }

    /**
     * Renews this worker's hold on the runs it holds (and only those), then recovers those of dead workers. Call it
     * every lease / 3.
     */
    public Uni<List<Run>> heartbeat() {
        return renew().chain(this::recoverAfterRenew);
    }

    /** Renews the hold on the runs this worker holds: a write, so it also tells whether the store takes writes. */
    public Uni<Integer> renew() {
        return runs.renew(worker.id(), List.copyOf(active.keySet()), clock.instant());
    }

    /**
     * Runs whose end this worker could not record yet because the store refused the write: while there are any, this
     * replica is not ready.
     */
    public int unrecordedEnds() {
        return unrecorded.size();
    }

    private Uni<List<Run>> recoverAfterRenew(Integer held) {
        return recover().invoke(found -> {
            if (!found.isEmpty()) {
                wake();
            }
        });
    }

    /**
     * This replica's HTTP port is bound, so no other live process has its id (see {@link Worker}): from now on recovery
     * takes back the runs of its former incarnations at once. Then recovers and wakes.
     */
    public Uni<List<Run>> replicaProven() {
        replicaProven = true;
        return recover().invoke(found -> wake());
    }

    public Duration lease() {
        return lease;
    }

    private void start(Run run) {
        RegisteredGraph g = graphs.apply(run.spec().graphId());
        Active a = new Active(run, g);
        if (active.putIfAbsent(run.runId(), a) != null) {
            // claimed again while this worker still records its end (another replica requeued it meanwhile): that record
            // ends it, under this claim, which is this worker's too
            LOG.warnf("Run %s was claimed again while its end is still being recorded here: it is not run twice", run.runId());
            return;
        }
        Executor home = homes.remove(run.runId());
        if (home != null) {
            home.execute(() -> begin(a));
        } else {
            begin(a);
        }
    }

    private void begin(Active a) {
        begin(a, logs.begin(a.run.threadId(), a.run.runId()), 0);
    }

    /**
     * Marks the thread busy and reserves the run's event numbers, then executes it. Nothing of the run has happened
     * yet, so a store that refuses the write (PostgreSQL down) only delays it: the write is tried again, with backoff,
     * the run held meanwhile; a cancel stops it between two tries. A thread deleted meanwhile ends it.
     */
    private void begin(Active a, ThreadEventLog log, int failures) {
        if (a.stop != null) {
            finish(a, log);
            return;
        }
        threads.beginRun(a.run.threadId(), SEQ_BLOCK, clock.instant()).subscribe().with(firstSeq -> execute(a, log, firstSeq), f -> {
            if (!StoreUnavailable.is(f)) { // the thread deleted meanwhile, or a failure that waiting will not mend
                fail(a, log, f);
                return;
            }
            if (failures == 0) {
                LOG.warnf("Run %s cannot begin yet: %s. It begins once the store takes writes", a.run.runId(), f.toString());
            }
            timers.schedule(recordBackoff(failures), () -> begin(a, log, failures + 1));
        });
    }

    private void execute(Active a, ThreadEventLog log, long firstSeq) {
        Run run = a.run;
        Set<StreamMode> requested = Set.copyOf(run.spec().modes());
        EventSeq seq = new EventSeq(firstSeq);
        String graphId = a.graph == null ? String.valueOf(run.spec().graphId()) : a.graph.graphId();
        a.events = new LangGraphEvents(log, run, graphId, requested, seq);
        a.protocol = new ProtocolEvents(protocolLogs.begin(run.threadId(), run.runId()), run.runId(), graphId, seq, clock::millis);
        a.events.metadata();
        a.protocol.running();
        if (a.graph == null) {
            finishFailed(a, log, "GraphNotFound", "the run's graph is not registered here");
            return;
        }
        RunRequest request;
        try {
            request = RunRequests.from(run, a.graph);
        } catch (RuntimeException bad) {
            finishFailed(a, log, "InvalidRequest", bad.getMessage());
            return;
        }
        if (a.stop != null) { // cancelled while starting
            finish(a, log);
            return;
        }
        CompiledGraph graph = a.graph.graph();
        RunRequest given = request;
        // a run a dead process left running was requeued: when the thread's newest checkpoint is its own, its input
        // (or command) is already applied, so it continues from there instead of starting its turn again
        graph.options().checkpointer().head(run.threadId(), "")
                .map(head -> head.isPresent() && run.runId().equals(head.get().checkpoint().runId()))
                .chain(begun -> begun ? graph.state(run.threadId()) : Uni.createFrom().item(Optional.<StateSnapshot>empty()))
                .subscribe().with(begun -> {
                    if (begun.isEmpty()) {
                        answered(graph, given).subscribe().with(ids -> {
                            a.protocol.answered(ids);
                            stream(a, log, graph, given);
                        }, f -> fail(a, log, f));
                    } else if (!begun.get().interrupts().isEmpty()) {
                        // it had reached an interrupt or a breakpoint, its end, when its process died: so it ends
                        StateSnapshot s = begun.get();
                        LOG.infof("Run %s had stopped at an interrupt before its process died", run.runId());
                        GraphEvent.Interrupted end = new GraphEvent.Interrupted(new GraphEvent.Tag(run.runId(), run.threadId(), "", null, s.step()),
                                s.interrupts(), s.checkpointId());
                        a.events.on(end);
                        a.protocol.on(end);
                        a.terminal = end;
                        finish(a, log);
                    } else {
                        LOG.infof("Run %s resumes from its last checkpoint", run.runId());
                        stream(a, log, graph, given.continuing());
                    }
                }, f -> fail(a, log, f));
    }

    private void stream(Active a, ThreadEventLog log, CompiledGraph graph, RunRequest request) {
        if (a.stop != null) {
            finish(a, log);
            return;
        }
        a.subscription = graph.stream(request).subscribe().with(e -> {
            a.events.on(e);
            a.protocol.on(e);
            if (e.terminal()) {
                a.terminal = e;
            }
        }, f -> fail(a, log, f), () -> finish(a, log));
        if (!timeout.isZero()) {
            a.timer = timers.schedule(timeout, () -> stop(a, StopReason.TIMEOUT));
        }
    }

    /** The interrupts a resuming run answers: those it names, or every one pending on the thread. */
    private static Uni<List<String>> answered(CompiledGraph graph, RunRequest request) {
        if (request.command() == null || !request.command().resumes()) {
            return Uni.createFrom().item(List.of());
        }
        if (!request.command().resumeById().isEmpty()) {
            return Uni.createFrom().item(List.copyOf(request.command().resumeById().keySet()));
        }
        return graph.state(request.threadId()).map(s -> s.map(snap -> snap.interrupts().stream()
                .filter(io.conduit.graph.Interrupt::answerable).map(io.conduit.graph.Interrupt::id).toList())
                .orElse(List.of()));
    }

    /** {@link #cancel(Run, StopReason, String)} by a client. */
    public Uni<Boolean> cancel(Run run, StopReason reason) {
        return cancel(run, reason, null);
    }

    /**
     * Stops a run: a pending one never starts; a running one is cancelled (the node in flight is cancelled, the
     * checkpoints written so far stay, unless {@code ROLLBACK} deletes them with the run record). A run held by a
     * worker that is gone is taken back first, then stopped. Either way its clients get the {@code metadata} event,
     * then an {@code error} that says the run was stopped, and by whom. False when no worker here can stop it (it runs
     * on another, live, replica). Completes once the stop is under way: {@link #recorded} tells when its end is stored.
     *
     * @param byRun the newer run that stops this one ({@code multitask_strategy} interrupt or rollback); null for a client
     */
    public Uni<Boolean> cancel(Run run, StopReason reason, String byRun) {
        Active a = active.get(run.runId());
        if (a != null) {
            stop(a, reason, byRun);
            return Uni.createFrom().item(true);
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
            return recover().chain(found -> runs.cancelPending(run.runId(), clock.instant())).chain(now -> {
                if (now) {
                    return stoppedBeforeStart(run, reason, byRun).replaceWith(true);
                }
                Active claimed = active.get(run.runId()); // claimed here meanwhile (a poll of the worker)
                if (claimed != null) {
                    stop(claimed, reason, byRun);
                }
                return Uni.createFrom().item(claimed != null);
            }).eventually(this::wake);
        });
    }

    /**
     * A run stopped before it started: its clients (the request that created it, those that joined it) get the
     * {@code metadata} event and the error that says why, then its stream ends; its thread's status is settled.
     */
    private Uni<Void> stoppedBeforeStart(Run run, StopReason reason, String byRun) {
        ThreadEventLog log = logs.find(run.threadId());
        Uni<Void> told = log == null || !log.holds(run.runId()) ? Uni.createFrom().voidItem()
                : threads.reserveSeq(run.threadId(), 2).onFailure().recoverWithNull().invoke(first -> {
                    if (first != null) {
                        LangGraphEvents events = new LangGraphEvents(log, run, graphIdOf(run), Set.of(), new EventSeq(first));
                        events.metadata();
                        events.error(stopCode(reason), stopMessage(run, reason, byRun));
                    }
                    log.end(run.runId(), clock.millis());
                }).replaceWithVoid();
        RegisteredGraph g = graphs.apply(graphIdOf(run));
        // rolled back: its record goes, and the checkpoints of a first life (a run a dead process had begun) with it
        Uni<?> cleanup = reason != StopReason.ROLLBACK ? Uni.createFrom().voidItem()
                : rollbackCheckpoints(g, run).chain(() -> runs.delete(run.runId()));
        return told.chain(() -> cleanup).chain(() -> settleThread(run.threadId(), null, g));
    }

    /**
     * Completes once the end of a run this worker holds has been recorded in the store (at once for a run it does not
     * hold): a cancel that waits, waits for this.
     */
    public Uni<Void> recorded(String runId) {
        Active a = active.get(runId);
        return a == null ? Uni.createFrom().voidItem() : Uni.createFrom().completionStage(a.recorded);
    }

    private static String stopCode(StopReason reason) {
        return reason == StopReason.ROLLBACK ? "UserRollback" : "UserInterrupt";
    }

    private static String stopMessage(Run run, StopReason reason, String byRun) {
        String how = reason == StopReason.ROLLBACK ? "rolled back" : "interrupted";
        return byRun != null
                ? "run " + run.runId() + " was " + how + " by run " + byRun + " (multitask_strategy " + (reason == StopReason.ROLLBACK ? "rollback" : "interrupt") + ")"
                : "run " + run.runId() + " was " + how + " by a cancel request (action " + (reason == StopReason.ROLLBACK ? "rollback" : "interrupt") + ")";
    }

    private static String graphIdOf(Run run) {
        return String.valueOf(run.spec().graphId());
    }

    /** Whether this worker is executing the run. */
    public boolean isRunning(String runId) {
        return active.containsKey(runId);
    }

    private void stop(Active a, StopReason reason) {
        stop(a, reason, null);
    }

    private void stop(Active a, StopReason reason, String byRun) {
        if (a.done || a.stop != null) {
            return;
        }
        a.stoppedBy = byRun;
        a.stop = reason;
        Cancellable s = a.subscription;
        if (s != null) {
            s.cancel();
            ThreadEventLog log = logs.find(a.run.threadId());
            // the run's last checkpoints may still be on their way (async durability): the run ends, and the next
            // one starts, when they have landed, so its progress is kept (or rolled back) whole
            a.graph.graph().settled(a.run.threadId()).ifNoItem().after(SETTLE_WAIT).recoverWithItem((Void) null)
                    .subscribe().with(v -> finish(a, log), f -> finish(a, log));
        }
    }

    private void fail(Active a, ThreadEventLog log, Throwable f) {
        LOG.warnf("Run %s failed outside the graph: %s", a.run.runId(), f.toString());
        finishFailed(a, log, "InternalError", "the run could not be executed: " + f.getMessage());
    }

    private void finishFailed(Active a, ThreadEventLog log, String code, String message) {
        a.terminal = new GraphEvent.RunFailed(new GraphEvent.Tag(a.run.runId(), a.run.threadId(), "", null, -1), code, message);
        finish(a, log);
    }

    private synchronized void finish(Active a, ThreadEventLog log) {
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
        record(a, log, status, 0);
    }

    /**
     * Records the run's end: its status (or, rolled back, its deletion), then its thread's status, then a temporary
     * thread's deletion. On the first success its clients are told; when the store refuses, they are told at once and
     * the record is tried again with backoff until the store takes it, the run held (and renewed) meanwhile.
     */
    private void record(Active a, ThreadEventLog log, RunStatus status, int failures) {
        Run run = a.run;
        // a retry writes only what the failed attempt had not: the run's own end is written once
        Uni<Boolean> ended = a.endWritten != null ? Uni.createFrom().item(a.endWritten) : numbered(a, log).chain(() -> a.stop == StopReason.ROLLBACK
                ? rollback(a).chain(() -> runs.delete(run.runId())).replaceWith(true)
                : runs.finish(run.runId(), worker.id(), status, clock.instant())).invoke(mine -> a.endWritten = mine);
        ended.call(mine -> mine ? settleThread(run.threadId(), status, a.graph).chain(() -> cleanupTemporary(run)) : Uni.createFrom().voidItem())
                .subscribe().with(mine -> {
                    if (!mine) {
                        LOG.warnf("Run %s was not recorded as %s: it no longer runs under this worker (deleted, or taken over by "
                                + "another worker after this one's hold lapsed, which records it)", run.runId(), status.wire());
                    } else if (failures > 0) {
                        LOG.infof("The end of run %s (%s) is recorded, after %d failed attempt(s)", run.runId(), status.wire(), failures);
                    }
                    tell(a, log, status);
                    released(a);
                }, f -> {
                    if (a.events != null) { // told at once; a run that never began has no event numbers yet: its clients wait
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
                    timers.schedule(recordBackoff(failures), () -> record(a, log, status, failures + 1));
                });
    }

    /**
     * A run that ended before it began (stopped, or its thread deleted, while its first write waited for the store)
     * has no event numbers: two are reserved now, for its {@code metadata} and the error that says why it ended.
     */
    private Uni<Void> numbered(Active a, ThreadEventLog log) {
        if (a.events != null) {
            return Uni.createFrom().voidItem();
        }
        return threads.reserveSeq(a.run.threadId(), 2).invoke(first -> {
            a.events = new LangGraphEvents(log, a.run, graphIdOf(a.run), Set.of(), new EventSeq(first));
            a.events.metadata();
            a.sayNow();
        }).onFailure(java.util.NoSuchElementException.class).recoverWithNull().replaceWithVoid();
    }

    private static Duration recordBackoff(int failures) {
        long millis = 100L << Math.min(failures, 10);
        return Duration.ofMillis(Math.min(millis, MAX_RECORD_BACKOFF.toMillis()));
    }

    /**
     * Tells the run's clients it ended, once: the protocol's root end, the classic {@code end} unless it failed or was
     * stopped (those end with their {@code error}), both logs ended.
     */
    private void tell(Active a, ThreadEventLog log, RunStatus status) {
        if (a.told) {
            return;
        }
        a.told = true;
        // the protocol's end first: a client told by the classic stream that the run ended finds it there too
        if (a.protocol != null) {
            a.protocol.end(status, a.error);
            ThreadEventLog protocolLog = protocolLogs.find(a.run.threadId());
            if (protocolLog != null) {
                protocolLog.end(a.run.runId(), clock.millis());
            }
        }
        if (a.events != null && status != RunStatus.ERROR && status != RunStatus.TIMEOUT && a.stop == null) {
            a.events.end();
        }
        if (log != null) {
            log.end(a.run.runId(), clock.millis());
        }
    }

    /** The run's end is recorded: this worker holds it no more, and the next run of its thread may start. */
    private void released(Active a) {
        unrecorded.remove(a.run.runId());
        active.remove(a.run.runId(), a);
        a.recorded.complete(null);
        wake();
    }

    /**
     * Deletes the checkpoints the run wrote. The engine's refusals (no checkpoint yet, a conflict) leave them; a store
     * that refuses the writes fails the record, which is tried again.
     */
    private Uni<Void> rollback(Active a) {
        return rollbackCheckpoints(a.graph, a.run);
    }

    private static Uni<Void> rollbackCheckpoints(RegisteredGraph g, Run run) {
        if (g == null) {
            return Uni.createFrom().voidItem();
        }
        return g.graph().rollback(run.threadId(), run.runId()).replaceWithVoid()
                .onFailure(GraphException.class).recoverWithUni(f -> {
                    LOG.warnf("Rolling back run %s: %s", run.runId(), f.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /**
     * The thread's status once a run has ended: error if it failed, interrupted if it waits for an answer, busy while
     * runs remain queued, idle otherwise.
     */
    private Uni<Void> settleThread(String threadId, RunStatus ended, RegisteredGraph g) {
        return runs.inflight(threadId).chain(queued -> {
            ThreadStatus s;
            if (!queued.isEmpty()) {
                s = ThreadStatus.BUSY;
            } else if (ended == RunStatus.ERROR || ended == RunStatus.TIMEOUT) {
                s = ThreadStatus.ERROR;
            } else {
                return waitingAtInterrupt(threadId, g).chain(waiting -> threads.setStatus(threadId, waiting ? ThreadStatus.INTERRUPTED : ThreadStatus.IDLE, clock.instant()));
            }
            return threads.setStatus(threadId, s, clock.instant());
        });
    }

    private Uni<Boolean> waitingAtInterrupt(String threadId, RegisteredGraph g) {
        if (g == null) {
            return Uni.createFrom().item(false);
        }
        return g.graph().state(threadId).map(s -> s.map(snap -> !snap.interrupts().isEmpty() || !snap.next().isEmpty()).orElse(false));
    }

    /** A stateless run's thread goes with it, unless it asked to keep it ({@code on_completion=keep}). */
    private Uni<Void> cleanupTemporary(Run run) {
        if (!run.spec().deletesThread()) {
            return Uni.createFrom().voidItem();
        }
        RegisteredGraph g = graphs.apply(run.spec().graphId());
        Uni<Void> checkpoints = g == null ? Uni.createFrom().voidItem() : g.graph().deleteThread(run.threadId());
        return checkpoints.chain(() -> runs.deleteThread(run.threadId())).chain(() -> threads.delete(run.threadId())).replaceWithVoid();
    }
}
