package io.conduit.runs.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.ManualClock;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStops;
import io.conduit.runs.Worker;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A worker paused past its lease (a long GC, a frozen node, a lost network) while another resumed its run: on waking
 * it lets the run go, at its next write or its next renewal, without writing over the run's new holder, which ends
 * the run as if the pause had never been.
 */
class RunExecutorLostHoldTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");
    static final Duration WAIT = Duration.ofSeconds(10);
    static final Duration LEASE = Duration.ofSeconds(3);

    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final InMemoryThreadStore threads = new InMemoryThreadStore();
    final InMemoryRunStore runs = new InMemoryRunStore();
    final ManualClock clock = new ManualClock(Instant.parse("2026-11-27T14:00:00Z"));
    /** The first node's executions, each in flight until the test opens its gate. */
    final List<CompletableFuture<Void>> began = List.of(new CompletableFuture<>(), new CompletableFuture<>());
    final List<CompletableFuture<Void>> mayEnd = List.of(new CompletableFuture<>(), new CompletableFuture<>());
    final AtomicInteger firsts = new AtomicInteger();
    final List<String> seconds = new CopyOnWriteArrayList<>();
    final InMemoryCheckpointer checkpoints = new InMemoryCheckpointer();
    final CompiledGraph graph = StateGraph.of(StateSchema.of(NOTE))
            .node("first", (s, ctx) -> {
                int n = firsts.getAndIncrement();
                began.get(n).complete(null);
                return Uni.createFrom().completionStage(mayEnd.get(n)).replaceWith(Update.of(NOTE, "first"));
            })
            .node("second", (s, ctx) -> {
                seconds.add(ctx.runId());
                return Uni.createFrom().item(Update.of(NOTE, s.get(NOTE) + ", second"));
            })
            .edge(StateGraph.START, "first").edge("first", "second").edge("second", StateGraph.END)
            .compile(GraphOptions.with(checkpoints));
    final RegisteredGraph registered = new RegisteredGraph("g", "", graph, u -> { }, Map.of(), c -> null);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void aPausedWorkerWhoseRunWasResumedElsewhereWritesNothingOfItsStep() throws Exception {
        RunExecutor paused = worker("paused:1");
        Run run = stepInFlightOn(paused);
        RunExecutor other = resumedElsewhereAfterAPause(run);

        mayEnd.get(0).complete(null); // the paused worker wakes, its step ends: its checkpoint is refused
        awaitLetGo(paused, run);
        assertThat(state(run)).as("nothing of the paused worker's step").isEqualTo("hi");
        assertThat(runs.get(run.runId()).await().atMost(WAIT).orElseThrow().workerId()).isEqualTo(other.workerId());

        mayEnd.get(1).complete(null);
        assertThat(awaitStatus(run)).isEqualTo(RunStatus.SUCCESS);
        assertThat(state(run)).isEqualTo("first, second");
        assertThat(seconds).as("the next step ran once, on the run's new holder").hasSize(1);
    }

    @Test
    void aPausedWorkerLetsTheRunGoAtItsNextRenewalWithoutWaitingForAWrite() throws Exception {
        RunExecutor paused = worker("paused:1");
        Run run = stepInFlightOn(paused);
        RunExecutor other = resumedElsewhereAfterAPause(run);

        paused.heartbeat().await().atMost(WAIT);
        assertThat(paused.isRunning(run.runId())).as("let go at the renewal").isFalse();
        mayEnd.get(0).complete(null); // its step's end reaches nothing: the run was stopped here
        mayEnd.get(1).complete(null);
        assertThat(awaitStatus(run)).isEqualTo(RunStatus.SUCCESS);
        assertThat(state(run)).isEqualTo("first, second");
        assertThat(seconds).hasSize(1);
        assertThat(runs.get(run.runId()).await().atMost(WAIT).orElseThrow().workerId()).isEqualTo(other.workerId());
    }

    @Test
    void aWorkerThatKeepsRenewingIsNeverFencedOff() throws Exception {
        RunExecutor worker = worker("alive:1");
        Run run = stepInFlightOn(worker);
        for (int i = 0; i < 10; i++) { // a long step: ten lease-thirds, renewed on time
            clock.advance(LEASE.dividedBy(3));
            worker.heartbeat().await().atMost(WAIT);
        }
        assertThat(worker(("other:2")).recover().await().atMost(WAIT)).isEmpty();
        mayEnd.get(0).complete(null);
        assertThat(awaitStatus(run)).isEqualTo(RunStatus.SUCCESS);
        assertThat(state(run)).isEqualTo("first, second");
    }

    @Test
    void aCancelReachingThePausedWorkerStopsTheRunWhereItRunsNow() throws Exception {
        RunExecutor paused = worker("paused:1");
        Run run = stepInFlightOn(paused);
        RunExecutor other = resumedElsewhereAfterAPause(run);
        SharedStops stops = new SharedStops();
        paused.share(stops);
        other.share(stops);

        // the client's cancel lands on the paused worker before any write or renewal told it the run is not its own
        assertThat(paused.cancel(run, RunExecutor.StopReason.INTERRUPT).await().atMost(WAIT)).isTrue();
        assertThat(paused.isRunning(run.runId())).as("let go, not stopped here").isFalse();
        assertThat(stops.asked).as("asked of the replica that runs it").containsExactly(run.runId());
        assertThat(awaitStatus(run)).isEqualTo(RunStatus.INTERRUPTED);
        assertThat(runs.get(run.runId()).await().atMost(WAIT).orElseThrow().workerId()).isEqualTo(other.workerId());
        mayEnd.forEach(gate -> gate.complete(null));
        assertThat(seconds).as("the stopped run went no further").isEmpty();
    }

    /** Stops asked of every worker, as the database carries them between replicas. */
    static final class SharedStops implements RunStops {
        final List<String> asked = new CopyOnWriteArrayList<>();
        final List<Asked> workers = new CopyOnWriteArrayList<>();

        @Override
        public Uni<Void> ask(String threadId, String runId, String reason, String byRun) {
            asked.add(runId);
            workers.forEach(w -> w.stop(threadId, runId, reason, byRun));
            return Uni.createFrom().voidItem();
        }

        @Override
        public void onAsked(Asked asked) {
            workers.add(asked);
        }
    }

    /** A run claimed by {@code worker}, its first step in flight. */
    private Run stepInFlightOn(RunExecutor worker) throws Exception {
        Run run = created();
        worker.wake();
        began.get(0).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return run;
    }

    /** The clock passes the lease with the first worker's step in flight; a second recovers the run and resumes it. */
    private RunExecutor resumedElsewhereAfterAPause(Run run) throws Exception {
        clock.advance(LEASE.multipliedBy(2));
        RunExecutor other = worker("other:2");
        assertThat(other.recover().await().atMost(WAIT)).extracting(Run::runId).containsExactly(run.runId());
        other.wake();
        began.get(1).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return other;
    }

    private RunExecutor worker(String replica) {
        return new RunExecutor(runs, threads, id -> registered, ServiceLogs.of(Duration.ofMinutes(1), Duration.ofMinutes(1), 1 << 20, 1 << 24),
                clock, Duration.ZERO, 10, Worker.boot(replica), LEASE,
                (delay, task) -> {
                    var f = scheduler.schedule(task, Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
                    return () -> f.cancel(false);
                }, () -> null);
    }

    private Run created() {
        String thread = "t-" + UUID.randomUUID();
        threads.create(thread, Map.of(), null, false, clock.instant()).await().atMost(WAIT);
        Instant past = clock.instant().minusSeconds(1);
        return runs.create(new Run(UUID.randomUUID().toString(), thread, "a", RunStatus.PENDING, Map.of(), MultitaskStrategy.ENQUEUE,
                RunSpecJson.fromKwargs(Map.of("graph_id", "g", "input", Map.of("note", "hi"))), past, past, past, null)).await().atMost(WAIT);
    }

    private String state(Run run) {
        return graph.state(run.threadId()).await().atMost(WAIT).orElseThrow().values().get(NOTE);
    }

    /** Bounded waits for what happens on other threads; nothing here is timed. */
    private void awaitLetGo(RunExecutor worker, Run run) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (worker.isRunning(run.runId()) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(worker.isRunning(run.runId())).as("the paused worker let the run go").isFalse();
    }

    private RunStatus awaitStatus(Run run) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        RunStatus s = runs.get(run.runId()).await().atMost(WAIT).orElseThrow().status();
        while (!s.finished() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            s = runs.get(run.runId()).await().atMost(WAIT).orElseThrow().status();
        }
        return s;
    }
}
