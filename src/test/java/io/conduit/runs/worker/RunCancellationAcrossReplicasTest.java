package io.conduit.runs.worker;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.api.RunEventLogs;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunSpecJson;
import io.conduit.runs.RunStatus;
import io.conduit.runs.Worker;
import io.conduit.runs.events.RunEvent;
import io.conduit.runs.events.RunEventListener;
import io.conduit.runs.events.ServiceLogs;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.RegisteredGraph;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run created on one replica, still pending, stopped through another: the creating replica's clients of the run
 * (a join, an A2A stream) are told it stopped and their streams end, as the stopping replica's would be. Before,
 * nothing reached the creating replica, whose segment of the run stayed open and empty: its clients waited until
 * they went away.
 */
class RunCancellationAcrossReplicasTest {

    static final Duration WAIT = Duration.ofSeconds(10);

    final InMemoryThreadStore threads = new InMemoryThreadStore();
    final InMemoryRunStore runs = new InMemoryRunStore();
    final RegisteredGraph graph = new RegisteredGraph("g", "", StateGraph.of(StateSchema.of(RunExecutorLostHoldTest.NOTE))
            .node("only", (s, ctx) -> Uni.createFrom().item(Update.of(RunExecutorLostHoldTest.NOTE, "done")))
            .edge(StateGraph.START, "only").edge("only", StateGraph.END)
            .compile(GraphOptions.with(new InMemoryCheckpointer())), u -> { }, Map.of(), c -> null);
    final ThreadLogs creatorLogs = logs();
    final RunExecutor creator = worker("creator:1", creatorLogs);
    final RunExecutor other = worker("other:2", logs());
    final RunExecutorLostHoldTest.SharedStops stops = new RunExecutorLostHoldTest.SharedStops();

    @Test
    void aPendingRunCancelledOnAnotherReplicaEndsItsStreamWhereItWasCreated() throws Exception {
        Run run = createdOnTheCreator();
        Follower follower = stoppedOnTheOther(run, RunExecutor.StopReason.INTERRUPT);
        assertThat(follower.modes).containsExactly("metadata", "error");
        assertThat(follower.data.get(1)).contains("cancel");
        assertThat(runs.get(run.runId()).await().atMost(WAIT).orElseThrow().status()).isEqualTo(RunStatus.INTERRUPTED);
    }

    @Test
    void aPendingRunRolledBackOnAnotherReplicaEndsItsStreamWhereItWasCreated() throws Exception {
        Run run = createdOnTheCreator();
        stoppedOnTheOther(run, RunExecutor.StopReason.ROLLBACK);
        assertThat(runs.get(run.runId()).await().atMost(WAIT)).as("rolled back: its record went").isEmpty();
    }

    /** The run stopped through the other replica, its client on the creator following it: once its stream ended. */
    private Follower stoppedOnTheOther(Run run, RunExecutor.StopReason reason) throws Exception {
        creator.share(stops);
        other.share(stops);
        Follower follower = new Follower();
        assertThat(creatorLogs.log(RunEventLogs.NAME, run.threadId()).followRun(run.runId(), -1, follower)).isNotNull();
        assertThat(other.cancel(run, reason).await().atMost(WAIT)).isTrue();
        follower.ended.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        return follower;
    }

    private static ThreadLogs logs() {
        return ServiceLogs.of(Duration.ofMinutes(1), Duration.ofMinutes(1), 1 << 20, 1 << 24);
    }

    private RunExecutor worker(String replica, ThreadLogs logs) {
        return new RunExecutor(runs, threads, id -> graph, logs, Clock.systemUTC(), Duration.ZERO, 10, Worker.boot(replica),
                Duration.ofSeconds(30), (delay, task) -> () -> { }, () -> null);
    }

    /** A pending run whose request came to the creator, which opened its segment (as a submission does). */
    private Run createdOnTheCreator() {
        String thread = "t-" + UUID.randomUUID();
        Instant now = Instant.now();
        threads.create(thread, Map.of(), null, false, now).await().atMost(WAIT);
        Run run = runs.create(new Run(UUID.randomUUID().toString(), thread, "a", RunStatus.PENDING, Map.of(), MultitaskStrategy.ENQUEUE,
                RunSpecJson.fromKwargs(Map.of("graph_id", "g", "input", Map.of("note", "hi"))), now, now, now, null)).await().atMost(WAIT);
        creatorLogs.begin(thread, run.runId());
        return run;
    }

    static final class Follower implements RunEventListener {
        final List<String> modes = new CopyOnWriteArrayList<>();
        final List<String> data = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> ended = new CompletableFuture<>();

        @Override
        public void onEvent(RunEvent e) {
            modes.add(e.mode());
            data.add(e.data());
        }

        @Override
        public void onEnd() {
            ended.complete(null);
        }
    }
}
