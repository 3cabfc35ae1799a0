package io.conduit.runs.worker;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.conduit.runs.Worker;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker's drain ({@link RunExecutor#drain}): it claims nothing more, lets the step in flight finish and store its
 * checkpoint, then hands the run back to the store, pending and held by nobody; another worker claims it at once and
 * resumes it from that checkpoint, running only what was left.
 */
class RunExecutorDrainTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");
    static final Duration WAIT = Duration.ofSeconds(10);

    final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    final InMemoryThreadStore threads = new InMemoryThreadStore();
    final InMemoryRunStore runs = new InMemoryRunStore();
    /** Opened by the test: the first step is in flight until then. */
    final CompletableFuture<Void> firstMayEnd = new CompletableFuture<>();
    final CompletableFuture<Void> firstBegan = new CompletableFuture<>();
    final AtomicInteger firsts = new AtomicInteger();
    final AtomicInteger seconds = new AtomicInteger();
    final CompiledGraph graph = StateGraph.of(StateSchema.of(NOTE))
            .node("first", (s, ctx) -> {
                firsts.incrementAndGet();
                firstBegan.complete(null);
                return Uni.createFrom().completionStage(firstMayEnd).replaceWith(Update.of(NOTE, "first"));
            })
            .node("second", (s, ctx) -> {
                seconds.incrementAndGet();
                return Uni.createFrom().item(Update.of(NOTE, s.get(NOTE) + ", second"));
            })
            .edge(StateGraph.START, "first").edge("first", "second").edge("second", StateGraph.END)
            .compile(GraphOptions.with(new InMemoryCheckpointer()));
    final RegisteredGraph registered = new RegisteredGraph("g", "", graph, u -> { }, Map.of(), c -> null);

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    private RunExecutor worker(String replica) {
        return new RunExecutor(runs, threads, id -> registered, ServiceLogs.of(Duration.ofMinutes(1), Duration.ofMinutes(1), 1 << 20, 1 << 24),
                Clock.systemUTC(), Duration.ZERO, 10, Worker.boot(replica), Duration.ofMinutes(10),
                (delay, task) -> {
                    var f = scheduler.schedule(task, Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
                    return () -> f.cancel(false);
                }, () -> null);
    }

    @Test
    void aDrainingWorkerHandsItsRunBackAfterTheStepInFlightAndAnotherResumesIt() throws Exception {
        RunExecutor leaving = worker("leaving:1");
        Run run = created("t-" + UUID.randomUUID());
        leaving.wake();
        firstBegan.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        CompletableFuture<Integer> drained = leaving.drain(Duration.ofMinutes(1)).subscribeAsCompletionStage();
        assertThat(leaving.draining()).isTrue();
        assertThat(drained).as("the step in flight goes on").isNotDone();
        assertThat(status(run)).isEqualTo(RunStatus.RUNNING);
        Run next = created("t-" + UUID.randomUUID());
        leaving.wake();
        assertThat(status(next)).as("nothing more is claimed").isEqualTo(RunStatus.PENDING);

        firstMayEnd.complete(null); // the step ends: its checkpoint is stored, and the run goes
        assertThat(drained.get(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1);
        Run back = runs.get(run.runId()).await().atMost(WAIT).orElseThrow();
        assertThat(back.status()).isEqualTo(RunStatus.PENDING);
        assertThat(back.workerId()).isNull();
        assertThat(seconds).as("the next step did not start here").hasValue(0);
        assertThat(graph.state(run.threadId()).await().atMost(WAIT).orElseThrow().values().get(NOTE)).isEqualTo("first");

        RunExecutor staying = worker("staying:2");
        staying.wake();
        assertThat(awaitStatus(run)).isEqualTo(RunStatus.SUCCESS);
        assertThat(awaitStatus(next)).isEqualTo(RunStatus.SUCCESS);
        assertThat(graph.state(run.threadId()).await().atMost(WAIT).orElseThrow().values().get(NOTE)).isEqualTo("first, second");
        assertThat(firsts).as("the stored step was not run again").hasValue(2); // once per run: the resumed one skipped it
    }

    @Test
    void aStepThatOutlastsTheWaitIsCutAndTheRunHandedBackAnyway() throws Exception {
        RunExecutor leaving = worker("leaving:1");
        Run run = created("t-" + UUID.randomUUID());
        leaving.wake();
        firstBegan.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(leaving.drain(Duration.ofMillis(50)).await().atMost(WAIT)).isEqualTo(1);
        Run back = runs.get(run.runId()).await().atMost(WAIT).orElseThrow();
        assertThat(back.status()).isEqualTo(RunStatus.PENDING);
        assertThat(back.workerId()).isNull();
        assertThat(graph.state(run.threadId()).await().atMost(WAIT).orElseThrow().values().get(NOTE)).as("nothing of the cut step").isEqualTo("hi");
    }

    private Run created(String thread) {
        threads.create(thread, Map.of(), null, false, Instant.now()).await().atMost(WAIT);
        Instant past = Instant.now().minusSeconds(1);
        return runs.create(new Run(UUID.randomUUID().toString(), thread, "a", RunStatus.PENDING, Map.of(), MultitaskStrategy.ENQUEUE,
                RunSpecJson.fromKwargs(Map.of("graph_id", "g", "input", Map.of("note", "hi"))), past, past, past, null)).await().atMost(WAIT);
    }

    private RunStatus status(Run run) {
        return runs.get(run.runId()).await().atMost(WAIT).orElseThrow().status();
    }

    private RunStatus awaitStatus(Run run) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        RunStatus s = status(run);
        while (!s.finished() && System.nanoTime() < deadline) {
            Thread.sleep(5);
            s = status(run);
        }
        return s;
    }
}
