package io.conduit.runs;

import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
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
import java.util.UUID;
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
 */
public final class RunExecutor {

    private static final Logger LOG = Logger.getLogger(RunExecutor.class);
    /** Event numbers reserved per run: a run never needs more, and unused numbers cost nothing. */
    static final int SEQ_BLOCK = 1 << 24;
    /** Longest a stopped run waits for its checkpoint writes in flight before it is recorded as ended anyway. */
    private static final Duration SETTLE_WAIT = Duration.ofSeconds(30);

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
    private final String workerId = UUID.randomUUID().toString();
    private final Map<String, Active> active = new ConcurrentHashMap<>();
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
        volatile boolean done;
        LangGraphEvents events;
        ProtocolEvents protocol;
        /** Why it failed, said by the protocol's root {@code failed}. */
        volatile String error;

        Active(Run run, RegisteredGraph graph) {
            this.run = run;
            this.graph = graph;
        }
    }

    /**
     * @param lease how long a run stays held by a worker that stopped renewing its hold (see {@link #heartbeat}): past
     *              it, the worker is taken for dead and its runs are resumed by another
     */
    public RunExecutor(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, RunEventLogs logs,
                       ProtocolEventLogs protocolLogs, Clock clock, Duration timeout, int maxConcurrent, Duration lease, Timers timers,
                       Placement placement) {
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
        return workerId;
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
        runs.claimNext(workerId, clock.instant()).subscribe().with(found -> {
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
     * Recovery, at start-up and on every {@link #heartbeat}: runs left running by a worker that has not renewed its
     * hold for a lease (a process that died; a live one renews far more often) are queued again, to be resumed from
     * their checkpoints. Runs of live workers, on other replicas, are left alone.
     */
    public Uni<List<Run>> recover() {
        Instant now = clock.instant();
        return runs.requeueOrphans(workerId, now.minus(lease), now).invoke(found -> {
            if (!found.isEmpty()) {
                LOG.infof("Resuming %d run(s) left running by a stopped process", found.size());
            }
        });
    }

    /** Renews this worker's hold on its running runs, then recovers those of dead workers. Call it every lease / 3. */
    public Uni<List<Run>> heartbeat() {
        return runs.renew(workerId, clock.instant()).chain(this::recoverAfterRenew);
    }

    private Uni<List<Run>> recoverAfterRenew(Integer held) {
        return recover().invoke(found -> {
            if (!found.isEmpty()) {
                wake();
            }
        });
    }

    public Duration lease() {
        return lease;
    }

    private void start(Run run) {
        RegisteredGraph g = graphs.apply(String.valueOf(run.kwargs().get("graph_id")));
        Active a = new Active(run, g);
        active.put(run.runId(), a);
        Executor home = homes.remove(run.runId());
        if (home != null) {
            home.execute(() -> begin(a));
        } else {
            begin(a);
        }
    }

    private void begin(Active a) {
        Run run = a.run;
        ThreadEventLog log = logs.begin(run.threadId(), run.runId());
        threads.beginRun(run.threadId(), SEQ_BLOCK, clock.instant())
                .subscribe().with(firstSeq -> execute(a, log, firstSeq), f -> fail(a, log, f));
    }

    @SuppressWarnings("unchecked")
    private void execute(Active a, ThreadEventLog log, long firstSeq) {
        Run run = a.run;
        Object modes = run.kwargs().get("stream_mode");
        Set<String> requested = modes instanceof List<?> l ? Set.copyOf((List<String>) l) : modes instanceof String s ? Set.of(s) : Set.of();
        EventSeq seq = new EventSeq(firstSeq);
        String graphId = a.graph == null ? String.valueOf(run.kwargs().get("graph_id")) : a.graph.graphId();
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

    /**
     * Stops a run: a pending one never starts; a running one is cancelled (the node in flight is cancelled, the
     * checkpoints written so far stay, unless {@code ROLLBACK} deletes them with the run record). Completes when the
     * run's status has been recorded.
     */
    public Uni<Boolean> cancel(Run run, StopReason reason) {
        Active a = active.get(run.runId());
        if (a != null) {
            stop(a, reason);
            return Uni.createFrom().item(true);
        }
        Uni<Boolean> pending = runs.cancelPending(run.runId(), clock.instant());
        return pending.call(was -> {
            if (!was) {
                return Uni.createFrom().voidItem();
            }
            ThreadEventLog log = logs.find(run.threadId());
            if (log != null) {
                log.end(run.runId(), clock.millis());
            }
            Uni<?> cleanup = reason == StopReason.ROLLBACK ? runs.delete(run.runId()) : Uni.createFrom().voidItem();
            return cleanup.chain(() -> settleThread(run.threadId(), null, graphs.apply(String.valueOf(run.kwargs().get("graph_id")))));
        });
    }

    /** Whether this worker is executing the run. */
    public boolean isRunning(String runId) {
        return active.containsKey(runId);
    }

    private void stop(Active a, StopReason reason) {
        if (a.done || a.stop != null) {
            return;
        }
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
        Run run = a.run;
        RunStatus status;
        GraphEvent t = a.terminal;
        if (a.stop == StopReason.TIMEOUT) {
            status = RunStatus.TIMEOUT;
            a.error = "TimeoutError: the run took longer than " + timeout.toSeconds() + " s (conduit.runs.timeout)";
            if (a.events != null) {
                a.events.error("TimeoutError", "the run took longer than " + timeout.toSeconds() + " s (conduit.runs.timeout)");
            }
        } else if (a.stop != null) {
            status = RunStatus.INTERRUPTED;
        } else if (t instanceof GraphEvent.RunFailed f) {
            status = RunStatus.ERROR;
            a.error = f.code() + ": " + f.message();
            if (a.events != null) {
                a.events.error(f.code(), f.message());
            }
        } else if (t instanceof GraphEvent.Interrupted) {
            status = RunStatus.INTERRUPTED;
        } else {
            status = RunStatus.SUCCESS;
        }
        boolean rollback = a.stop == StopReason.ROLLBACK;
        Uni<?> record = rollback
                ? rollback(a).chain(() -> runs.delete(run.runId()))
                : runs.setStatus(run.runId(), status, clock.instant());
        record.chain(() -> settleThread(run.threadId(), status, a.graph))
                .chain(() -> cleanupTemporary(run))
                .subscribe().with(v -> ended(a, log, status), f -> {
                    LOG.warnf("Recording the end of run %s failed: %s", run.runId(), f.toString());
                    ended(a, log, status);
                });
    }

    private void ended(Active a, ThreadEventLog log, RunStatus status) {
        // the protocol's end first: a client told by the classic stream that the run ended finds it there too
        if (a.protocol != null) {
            a.protocol.end(status, a.error);
            ThreadEventLog protocolLog = protocolLogs.find(a.run.threadId());
            if (protocolLog != null) {
                protocolLog.end(a.run.runId(), clock.millis());
            }
        }
        if (a.events != null && status != RunStatus.ERROR && status != RunStatus.TIMEOUT) {
            a.events.end();
        }
        if (log != null) {
            log.end(a.run.runId(), clock.millis());
        }
        active.remove(a.run.runId());
        wake();
    }

    private Uni<Void> rollback(Active a) {
        if (a.graph == null) {
            return Uni.createFrom().voidItem();
        }
        return a.graph.graph().rollback(a.run.threadId(), a.run.runId()).replaceWithVoid()
                .onFailure().recoverWithUni(f -> {
                    LOG.warnf("Rolling back run %s: %s", a.run.runId(), f.getMessage());
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
        if (!Boolean.TRUE.equals(run.kwargs().get("temporary")) || "keep".equals(run.kwargs().get("on_completion"))) {
            return Uni.createFrom().voidItem();
        }
        RegisteredGraph g = graphs.apply(String.valueOf(run.kwargs().get("graph_id")));
        Uni<Void> checkpoints = g == null ? Uni.createFrom().voidItem() : g.graph().deleteThread(run.threadId());
        return checkpoints.chain(() -> runs.deleteThread(run.threadId())).chain(() -> threads.delete(run.threadId())).replaceWithVoid();
    }
}
