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
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A run starts where the request that created it came in ({@link RunExecutor#created}): the worker claims it at once,
 * but its graph runs only once that place (an event loop, here a queue the test drains) runs the start.
 */
class RunExecutorPlacementTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");
    static final Duration WAIT = Duration.ofSeconds(10);

    final InMemoryThreadStore threads = new InMemoryThreadStore();
    final InMemoryRunStore runs = new InMemoryRunStore();
    final CompiledGraph graph = StateGraph.of(StateSchema.of(NOTE))
            .node("write", (s, ctx) -> Uni.createFrom().item(Update.of(NOTE, "written")))
            .edge(StateGraph.START, "write").edge("write", StateGraph.END)
            .compile(GraphOptions.with(new InMemoryCheckpointer()));
    final RegisteredGraph registered = new RegisteredGraph("g", "", graph, u -> { }, Map.of(), c -> null);
    final RunExecutor executor = new RunExecutor(runs, threads, id -> registered, ServiceLogs.of(Duration.ofMinutes(1), Duration.ofMinutes(1), 1 << 20, 1 << 24),
            Clock.systemUTC(), Duration.ZERO, 10, Worker.boot("test"), Duration.ofMinutes(1),
            (delay, task) -> { throw new AssertionError("no timer is needed here"); }, () -> null);

    @Test
    void aRunStartsAtItsHomeAndAtOnceWithoutOne() {
        Queue<Runnable> loop = new ArrayDeque<>();
        Executor home = loop::add;
        Run placed = created("placed");
        executor.created(placed.runId(), home);

        assertThat(loop).hasSize(1);
        assertThat(status(placed)).isEqualTo(RunStatus.RUNNING); // claimed by this worker, waiting for its place
        assertThat(graph.state("placed").await().atMost(WAIT)).isEmpty(); // nothing ran yet
        loop.poll().run();
        assertThat(awaitStatus(placed)).isEqualTo(RunStatus.SUCCESS);
        assertThat(graph.state("placed").await().atMost(WAIT).orElseThrow().values().get(NOTE)).isEqualTo("written");

        Run unplaced = created("unplaced");
        executor.created(unplaced.runId(), null);
        assertThat(awaitStatus(unplaced)).isEqualTo(RunStatus.SUCCESS);
        assertThat(loop).isEmpty();
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

    /** The run's status once it has ended (the graph runs on the store's and the checkpointer's threads). */
    private RunStatus awaitStatus(Run run) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        RunStatus s = status(run);
        while (!s.finished() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            s = status(run);
        }
        return s;
    }
}
