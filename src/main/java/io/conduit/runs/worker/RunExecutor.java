package io.conduit.runs.worker;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.RunRequest;
import io.conduit.graph.StateSnapshot;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.StoreUnavailable;
import io.conduit.runs.StreamMode;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.Worker;
import io.conduit.runs.events.RunNotice;
import io.conduit.runs.events.ThreadLog;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.graphs.RunRequests;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The worker: claims pending runs from the {@link RunStore} (the store guarantees one running run per thread),
 * executes each on its graph, writes its events to the thread's event log, and records how it ended. Nothing here
 * waits for a client: HTTP requests only create runs and subscribe to logs. {@link #wake} is called when a run is
 * created or ends, and periodically (delayed runs, other replicas' work).
 *
 * <p>It executes runs and coordinates the parts that do the rest: {@link ClaimLoop} claims runs (started where
 * {@link RunHomes} says), {@link WorkerLease} renews this worker's hold on the runs it holds ({@link HeldRuns}) and
 * recovers those of workers that are gone, {@link RunEnding} records a run's end and tells its clients, and
 * {@link RunCancellation} stops runs from outside (cancel, multitask strategies).
 */
public final class RunExecutor {

    private static final Logger LOG = Logger.getLogger(RunExecutor.class);
    /** Event numbers reserved per run: a run never needs more, and unused numbers cost nothing. */
    public static final int SEQ_BLOCK = 1 << 24;

    /** Why a run was stopped from outside. */
    public enum StopReason { INTERRUPT, ROLLBACK, TIMEOUT }

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

    private final ThreadStore threads;
    private final Function<String, RegisteredGraph> graphs;
    private final ThreadLogs logs;
    private final Clock clock;
    private final Duration timeout;
    private final Worker worker;
    private final Timers timers;
    private final Placement placement;
    private final RunHomes homes = new RunHomes();
    private final HeldRuns held = new HeldRuns();
    private final ClaimLoop claims;
    private final WorkerLease lease;
    private final RunEnding ending;
    private final RunCancellation cancellation;
    private final RunObserver observer;

    /**
     * @param worker who this worker is: its replica and this incarnation (see {@link Worker})
     * @param lease  how long a run stays held by a worker that stopped renewing its hold (see {@link #heartbeat}): past
     *               it, the worker is taken for dead and its runs are resumed by another
     */
    public RunExecutor(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, ThreadLogs logs,
                       Clock clock, Duration timeout, int maxConcurrent, Worker worker, Duration lease,
                       Timers timers, Placement placement) {
        this(runs, threads, graphs, logs, clock, timeout, maxConcurrent, worker, lease, timers, placement, RunObserver.NONE);
    }

    /** @param observer told of each run's start, events and end (metrics, traces, the log context) */
    public RunExecutor(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, ThreadLogs logs,
                       Clock clock, Duration timeout, int maxConcurrent, Worker worker, Duration lease,
                       Timers timers, Placement placement, RunObserver observer) {
        this.observer = observer;
        this.worker = worker;
        this.placement = placement;
        this.timers = timers;
        this.threads = threads;
        this.graphs = graphs;
        this.logs = logs;
        this.clock = clock;
        this.timeout = timeout;
        this.claims = new ClaimLoop(runs, worker, clock, held, maxConcurrent, timers, this::start);
        ThreadSettlement settlement = new ThreadSettlement(runs, threads, graphs, clock);
        this.ending = new RunEnding(runs, threads, logs, clock, timeout, worker, timers, held, settlement, claims::wake);
        this.lease = new WorkerLease(runs, worker, clock, lease, held, claims::wake, ending::lost);
        this.cancellation = new RunCancellation(runs, threads, graphs, logs, clock, held, ending, settlement, this.lease, claims::wake,
                observer);
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
        homes.remember(runId, home);
        observer.created(runId);
        wake();
    }

    /** Claims and starts what can run now. Cheap to call often: concurrent calls fold into one claim loop. */
    public void wake() {
        claims.wake();
    }

    /**
     * Drains this worker (the replica shuts down): it claims nothing more, and hands back every run it executes, each at
     * its next step boundary or after {@code stepWait} at the latest (see {@link RunEnding#handBack}), so another worker
     * resumes it from its checkpoint at once instead of after the lease. Completes, with how many runs it let go, once
     * each is handed back (or its end, if it ended meanwhile, is recorded).
     */
    public Uni<Integer> drain(Duration stepWait) {
        claims.stop();
        List<HeldRun> runs = held.all();
        if (runs.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Uni.join().all(runs.stream().map(a -> ending.handBack(a, stepWait)).toList()).andCollectFailures()
                .map(x -> runs.size());
    }

    /** Whether this worker drains: it claims nothing more, and the replica is not ready. */
    public boolean draining() {
        return claims.stopped();
    }

    /** Queues again the runs of workers that are gone: see {@link WorkerLease#recover}. */
    public Uni<List<Run>> recover() {
        return lease.recover();
    }

    /** Renews this worker's hold, then recovers: call it every lease / 3 (see {@link WorkerLease#heartbeat}). */
    public Uni<List<Run>> heartbeat() {
        return lease.heartbeat();
    }

    /** See {@link WorkerLease#renew}: a write, so it also tells whether the store takes writes. */
    public Uni<Integer> renew() {
        return lease.renew();
    }

    /** Ends the store refused to record so far: see {@link RunEnding#unrecordedEnds}. */
    public int unrecordedEnds() {
        return ending.unrecordedEnds();
    }

    /** This replica's HTTP port is bound: see {@link WorkerLease#replicaProven}. */
    public Uni<List<Run>> replicaProven() {
        return lease.replicaProven();
    }

    public Duration lease() {
        return lease.lease();
    }

    private void start(Run run) {
        RegisteredGraph g = graphs.apply(run.spec().graphId());
        HeldRun a = new HeldRun(run, g);
        if (!held.hold(a)) {
            // claimed again while this worker still records its end (another replica requeued it meanwhile): that record
            // ends it, under this claim, which is this worker's too
            LOG.warnf("Run %s was claimed again while its end is still being recorded here: it is not run twice", run.runId());
            return;
        }
        a.watch = observer.began(run, g == null ? graphIdOf(run) : g.graphId());
        Executor home = homes.take(run.runId());
        Runnable go = () -> a.watch.within(() -> begin(a));
        Runnable dispatch = home != null ? () -> home.execute(go) : go;
        HeldRun before = held.otherOfThread(a);
        if (before == null) {
            dispatch.run();
        } else {
            // the thread's previous run is free in the store but still telling its end here (a run it stopped, then
            // this one claimed at once): this run begins after, so that the thread's events keep their order
            before.recorded.whenComplete((x, f) -> dispatch.run());
        }
    }

    private void begin(HeldRun a) {
        if (a.done) { // handed back or let go before it began: no segment is opened for it here
            return;
        }
        begin(a, logs.start(a.run.threadId(), a.run.runId()), 0);
    }

    /**
     * Marks the thread busy and reserves the run's event numbers, then executes it. Nothing of the run has happened
     * yet, so a store that refuses the write (PostgreSQL down) only delays it: the write is tried again, with backoff,
     * the run held meanwhile; a cancel stops it between two tries. A thread deleted meanwhile ends it.
     */
    private void begin(HeldRun a, ThreadLog log, int failures) {
        if (a.done) { // handed back (the replica drains) before it began
            return;
        }
        if (a.stop != null) {
            ending.finish(a, log);
            return;
        }
        threads.beginRun(a.run.threadId(), SEQ_BLOCK, clock.instant()).subscribe().with(firstSeq -> execute(a, log, firstSeq), f -> {
            if (!StoreUnavailable.is(f)) { // the thread deleted meanwhile, or a failure that waiting will not mend
                ending.fail(a, log, f);
                return;
            }
            if (failures == 0) {
                LOG.warnf("Run %s cannot begin yet: %s. It begins once the store takes writes", a.run.runId(), f.toString());
            }
            timers.schedule(StoreBackoff.after(failures), () -> begin(a, log, failures + 1));
        });
    }

    private void execute(HeldRun a, ThreadLog log, long firstSeq) {
        Run run = a.run;
        Set<StreamMode> requested = Set.copyOf(run.spec().modes());
        String graphId = a.graph == null ? String.valueOf(run.spec().graphId()) : a.graph.graphId();
        log.append(run.runId(), new RunNotice.Began(firstSeq, run, graphId, requested, true));
        a.numbered = log;
        if (a.graph == null) {
            ending.finishFailed(a, log, "GraphNotFound", "the run's graph is not registered here");
            return;
        }
        RunRequest request;
        try {
            request = RunRequests.from(run, a.graph);
        } catch (RuntimeException bad) {
            ending.finishFailed(a, log, "InvalidRequest", bad.getMessage());
            return;
        }
        if (a.stop != null) { // cancelled while starting
            ending.finish(a, log);
            return;
        }
        CompiledGraph graph = a.graph.graph();
        RunRequest given = request;
        // a run a dead process left running was requeued: when the thread's newest checkpoint is its own, its input
        // (or command) is already applied, so it continues from there instead of starting its turn again
        graph.stateLeftBy(run.threadId(), run.runId()).subscribe().with(begun -> {
            if (begun.isEmpty()) {
                answered(graph, given).subscribe().with(ids -> {
                    log.append(run.runId(), new RunNotice.Answered(ids));
                    stream(a, log, graph, given);
                }, f -> ending.fail(a, log, f));
            } else if (!begun.get().interrupts().isEmpty()) {
                // it had reached an interrupt or a breakpoint, its end, when its process died: so it ends
                StateSnapshot s = begun.get();
                LOG.infof("Run %s had stopped at an interrupt before its process died", run.runId());
                GraphEvent.Interrupted end = new GraphEvent.Interrupted(new GraphEvent.Tag(run.runId(), run.threadId(), "", null, s.step()),
                        s.interrupts(), s.checkpointId());
                log.append(run.runId(), end);
                a.terminal = end;
                ending.finish(a, log);
            } else {
                LOG.infof("Run %s resumes from its last checkpoint", run.runId());
                stream(a, log, graph, given.continuing());
            }
        }, f -> ending.fail(a, log, f));
    }

    private void stream(HeldRun a, ThreadLog log, CompiledGraph graph, RunRequest request) {
        if (a.stop != null) {
            ending.finish(a, log);
            return;
        }
        if (a.done || a.handingBack) { // the replica drains: nothing of the run is under way, it goes at once
            ending.handBackNow(a, "before its steps began");
            return;
        }
        a.subscription = graph.stream(request.fence(() -> lease.admit(a))).subscribe().with(e -> {
            if (a.handingBack && a.done) {
                return; // handed back: what comes before the cancel lands is the next holder's to do
            }
            log.append(a.run.runId(), e);
            a.watch.event(e);
            if (e.terminal()) {
                a.terminal = e;
            } else if (e instanceof GraphEvent.Values v && e.tag().ns().isEmpty() && !v.start()) {
                // the step's checkpoint is written. Not so for the state a resumed run starts from: its answer may be
                // in no checkpoint of its own yet, and a run handed back then would be given its answer twice
                ending.atStepBoundary(a);
            }
        }, f -> ending.fail(a, log, f), () -> ending.finish(a, log));
        if (a.done) {
            // handed back at a boundary the graph reached before subscribe() returned, or let go meanwhile (lost)
            a.subscription.cancel();
            return;
        }
        if (a.stop != null) {
            // a cancel that landed while subscribing found no stream to cancel: without this the run went on to
            // its end (found by the A2A door's tasks/cancel test)
            ending.cancelStopped(a, a.subscription);
            return;
        }
        if (!timeout.isZero()) {
            a.timer = timers.schedule(timeout, () -> ending.stop(a, StopReason.TIMEOUT));
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
        return cancellation.cancel(run, reason, byRun);
    }

    /**
     * Completes once the end of a run this worker holds has been recorded in the store (at once for a run it does not
     * hold): a cancel that waits, waits for this.
     */
    public Uni<Void> recorded(String runId) {
        HeldRun a = held.get(runId);
        return a != null ? Uni.createFrom().completionStage(a.recorded)
                : cancellation.recordedElsewhere(runId, Duration.ofMillis(100), lease.lease().multipliedBy(2));
    }

    /**
     * Ties the worker to the other replicas on its database: a stop of a run another replica executes is asked of
     * it, and the stops they ask of runs held here are made.
     */
    public void share(io.conduit.runs.RunStops stops) {
        cancellation.share(stops);
    }

    /** The graph a run is for, as it was stored. */
    static String graphIdOf(Run run) {
        return String.valueOf(run.spec().graphId());
    }

    /** Whether this worker is executing the run. */
    public boolean isRunning(String runId) {
        return held.holds(runId);
    }
}
