package io.conduit.runs.worker;

import io.conduit.runs.RunStore;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.Worker;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.GraphRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.vertx.http.HttpServerStart;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.Executor;
import org.jboss.logging.Logger;

/** The run worker, made once, and its timers: the poll for queued runs and the lease's heartbeat. */
@ApplicationScoped
public class WorkerBeans {

    private static final Logger LOG = Logger.getLogger(WorkerBeans.class);

    private long pollTimer = -1;
    private long leaseTimer = -1;

    /** Every {@link RunObserver} bean watches the runs (metrics and traces, token usage). */
    @Produces
    @Singleton
    RunExecutor executor(RunStore runs, ThreadStore threads, GraphRegistry graphs, ThreadLogs logs,
                         ServingConfig config, Vertx vertx, jakarta.enterprise.inject.Instance<RunObserver> observer) {
        Worker worker = Worker.boot(ReplicaId.ofThisProcess());
        LOG.infof("Run worker %s (replica %s)", worker.id(), worker.replica());
        return new RunExecutor(runs, threads, id -> graphs.byGraphId(id), logs, Clock.systemUTC(), config.timeout(), config.maxConcurrent(),
                worker, config.lease(), vertxTimers(vertx), WorkerBeans::eventLoopHere,
                RunObservers.of(observer.stream().toList()));
    }

    /** The caller's Vert.x event loop as an executor ({@link RunContexts}), or null off an event loop (a worker, a test thread). */
    static Executor eventLoopHere() {
        io.vertx.core.Context here = io.vertx.core.Vertx.currentContext();
        if (here == null || !here.isEventLoopContext()) {
            return null;
        }
        io.vertx.core.Context runs = RunContexts.on(here); // same loop, outside the HTTP server's deployment
        return task -> runs.runOnContext(v -> task.run());
    }

    /** Vert.x timers: a cancelled one leaves the event loop's queue at once. */
    static RunExecutor.Timers vertxTimers(Vertx vertx) {
        return (delay, task) -> {
            long id = vertx.setTimer(Math.max(1, delay.toMillis()), t -> task.run());
            return () -> vertx.cancelTimer(id);
        };
    }

    void start(@Observes StartupEvent e, RunExecutor executor, ServingConfig config, Vertx vertx,
               jakarta.enterprise.inject.Instance<io.conduit.runs.RunStops> stops) {
        io.conduit.runs.RunStops shared = stops.isResolvable() ? stops.get() : null;
        if (shared != null) {
            executor.share(shared); // replicas on one database stop each other's runs
        }
        executor.recover().subscribe().with(found -> executor.wake(), f -> executor.wake());
        pollTimer = vertx.setPeriodic(config.pollInterval().toMillis(), id -> executor.wake());
        leaseTimer = vertx.setPeriodic(Math.max(100, config.lease().toMillis() / 3), id -> executor.heartbeat().subscribe().with(
                found -> { }, f -> LOG.warnf("Renewing the worker's runs failed: %s", f.toString())));
    }

    /**
     * The HTTP port is bound: no other live process has this replica's id (host and port), so the runs of its former
     * incarnations are taken back now, without waiting for their lease (a restart after kill -9). Quarkus fires it
     * asynchronously once the server listens.
     */
    void portBound(@ObservesAsync HttpServerStart e, RunExecutor executor) {
        executor.replicaProven().subscribe().with(found -> { }, f -> LOG
                .warnf("Taking back the runs of this replica's former incarnation failed (the heartbeat tries again): %s", f.toString()));
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        vertx.cancelTimer(pollTimer);
        vertx.cancelTimer(leaseTimer);
    }
}
