package io.conduit.runs;

import io.conduit.agent.AgentConfig;
import io.conduit.agent.AgentSettings;
import io.conduit.agent.AgentState;
import io.conduit.agent.MessageRules;
import io.conduit.graph.CompiledGraph;
import io.conduit.runs.delivery.StreamPermits;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** The serving layer's parts, made once: the graphs served, the event logs, the worker and its timers. */
@ApplicationScoped
public class ServingBeans {

    /** The graph id of the default assistant. */
    public static final String AGENT = "agent";

    private long pollTimer = -1;
    private long sweepTimer = -1;
    private long ttlTimer = -1;
    private long leaseTimer = -1;

    /** The default assistant's graph. Every {@link RegisteredGraph} bean is served, so a blueprint adds its own producer. */
    @Produces
    @Singleton
    RegisteredGraph agentGraph(CompiledGraph agent, AgentConfig config) {
        // the input rules are checked before a run is created (ingress applies them again inside the run)
        return new RegisteredGraph(AGENT,
                "The default assistant: ingress, planner, tools, verifier, generator, summarizer", agent,
                new ChatInput(MessageRules.of(config), config.maxMessageChars(), Set.of(AgentState.MESSAGES.name(), AgentState.USER_ID.name())),
                AgentSettings.SCHEMA, AgentSettings::check);
    }

    /** Every graph bean, the default assistant first, the others by graph id (a stable order for listings). */
    @Produces
    @Singleton
    GraphRegistry graphs(Instance<RegisteredGraph> graphs) {
        return new GraphRegistry(graphs.stream()
                .sorted(Comparator.comparing((RegisteredGraph g) -> !AGENT.equals(g.graphId())).thenComparing(RegisteredGraph::graphId))
                .toList());
    }

    @Produces
    @Singleton
    ThreadLogs threadLogs(ServingConfig config, Instance<EventView> doors) {
        // every door's wire format (an EventView bean) is translated from the one log
        List<EventView> more = doors.stream().sorted(Comparator.comparing(EventView::name)).toList();
        return ThreadLogs.of(config.streamRetention(), config.protocolRetention(), more, config.maxRunLogBytes(),
                logBudget(config.maxLogBytes()), System::currentTimeMillis);
    }

    @Produces
    @Singleton
    RunEventLogs logs(ThreadLogs logs) {
        return new RunEventLogs(logs);
    }

    @Produces
    @Singleton
    ProtocolEventLogs protocolLogs(ThreadLogs logs) {
        return new ProtocolEventLogs(logs);
    }

    @Produces
    @Singleton
    RunExecutor executor(RunStore runs, ThreadStore threads, GraphRegistry graphs, ThreadLogs logs,
                         ServingConfig config, Vertx vertx) {
        Worker worker = Worker.boot(ReplicaId.ofThisProcess());
        org.jboss.logging.Logger.getLogger(ServingBeans.class).infof("Run worker %s (replica %s)", worker.id(), worker.replica());
        return new RunExecutor(runs, threads, id -> graphs.byGraphId(id), logs, Clock.systemUTC(), config.timeout(), config.maxConcurrent(),
                worker, config.lease(), vertxTimers(vertx), ServingBeans::eventLoopHere);
    }

    /**
     * What each of the two event logs (classic and protocol) may keep in all: {@code conduit.runs.max-log-bytes}, but
     * never more than an eighth of the heap, so that the replay buffers of a small container (a 512 MB heap) cannot
     * fill it: there, 256 MiB each ran the JVM into back-to-back full GCs and then out of memory.
     */
    static long logBudget(long configured) {
        return Math.min(configured, Runtime.getRuntime().maxMemory() / 8);
    }

    /** The caller's Vert.x event-loop context as an executor, or null off an event loop (a worker, a test thread). */
    static java.util.concurrent.Executor eventLoopHere() {
        io.vertx.core.Context here = io.vertx.core.Vertx.currentContext();
        return here == null || !here.isEventLoopContext() ? null : task -> here.runOnContext(v -> task.run());
    }

    /** Vert.x timers: a cancelled one leaves the event loop's queue at once. */
    static RunExecutor.Timers vertxTimers(Vertx vertx) {
        return (delay, task) -> {
            long id = vertx.setTimer(Math.max(1, delay.toMillis()), t -> task.run());
            return () -> vertx.cancelTimer(id);
        };
    }

    @Produces
    @Singleton
    ThreadGraphs threadGraphs(ThreadStore threads, GraphRegistry graphs) {
        return new ThreadGraphs(threads, graphs);
    }

    @Produces
    @Singleton
    Assistants assistants(GraphRegistry graphs, AssistantStore store) {
        return new Assistants(graphs, store);
    }

    @Produces
    @Singleton
    RunSubmission submission(RunStore runs, ThreadStore threads, Assistants assistants, RunExecutor executor, ThreadLogs logs,
                             LimitsConfig limits) {
        return new RunSubmission(runs, threads, assistants, executor, logs, Clock.systemUTC(),
                new RunAdmission(logs, runs, limits.maxActiveRuns(), limits.maxQueuedRunsPerThread(), limits.retryAfter()));
    }

    /** The open streams of this replica, for every transport. */
    @Produces
    @Singleton
    StreamPermits streamPermits(LimitsConfig limits) {
        return new StreamPermits(limits.maxStreams(), limits.retryAfter());
    }

    @Produces
    @Singleton
    ThreadDeletion deletion(ThreadStore threads, RunStore runs, ThreadLogs logs, GraphRegistry graphs,
                            Instance<ThreadData> owned) {
        return new ThreadDeletion(threads, runs, logs, graphs, Clock.systemUTC(), owned.stream().toList());
    }

    void start(@Observes StartupEvent e, RunExecutor executor, ThreadLogs logs, ThreadDeletion deletion,
               ServingConfig config, Vertx vertx) {
        executor.recover().subscribe().with(found -> executor.wake(), f -> executor.wake());
        pollTimer = vertx.setPeriodic(config.pollInterval().toMillis(), id -> executor.wake());
        sweepTimer = vertx.setPeriodic(10_000, id -> {
            logs.sweep(System.currentTimeMillis());
        });
        ttlTimer = vertx.setPeriodic(60_000, id -> deletion.sweep(100).subscribe().with(n -> { }, f -> { }));
        leaseTimer = vertx.setPeriodic(Math.max(100, config.lease().toMillis() / 3), id -> executor.heartbeat().subscribe().with(
                found -> { }, f -> org.jboss.logging.Logger.getLogger(ServingBeans.class).warnf("Renewing the worker's runs failed: %s", f.toString())));
    }

    /**
     * The HTTP port is bound: no other live process has this replica's id (host and port), so the runs of its former
     * incarnations are taken back now, without waiting for their lease (a restart after kill -9). Quarkus fires it
     * asynchronously once the server listens.
     */
    void portBound(@jakarta.enterprise.event.ObservesAsync io.quarkus.vertx.http.HttpServerStart e, RunExecutor executor) {
        executor.replicaProven().subscribe().with(found -> { }, f -> org.jboss.logging.Logger.getLogger(ServingBeans.class)
                .warnf("Taking back the runs of this replica's former incarnation failed (the heartbeat tries again): %s", f.toString()));
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        vertx.cancelTimer(pollTimer);
        vertx.cancelTimer(sweepTimer);
        vertx.cancelTimer(ttlTimer);
        vertx.cancelTimer(leaseTimer);
    }
}
