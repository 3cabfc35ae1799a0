package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.startedNodes;
import static io.conduit.graph.Runs.taskStarted;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.Head;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A process that dies in the middle of a superstep: what it stored is its checkpoints and the pending writes of the
 * tasks that finished. A run with no input on a fresh graph over the same store (a new process) re-runs only the
 * tasks that had not finished, and the thread ends as if nothing had happened.
 */
class CrashRecoveryTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRunCutOffMidStepResumesRunningOnlyTheUnfinishedTasks(Backends.Backend b) throws Exception {
        AtomicInteger aRuns = new AtomicInteger();
        AtomicInteger bRuns = new AtomicInteger();
        AtomicInteger joinRuns = new AtomicInteger();
        AtomicBoolean hang = new AtomicBoolean(true);
        CompletableFuture<Void> bEntered = new CompletableFuture<>();
        GraphOptions options = b.options(); // one store, two "processes"
        StateGraph shape = StateGraph.of(StateSchema.of(MSGS))
                .node("a", (s, ctx) -> {
                    aRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("a", "a")));
                })
                .node("b", (s, ctx) -> {
                    bRuns.incrementAndGet();
                    if (!hang.get()) {
                        return done(Update.of(MSGS, Msg.ai("b", "b")));
                    }
                    bEntered.complete(null);
                    return Uni.createFrom().nothing();
                })
                .node("join", (s, ctx) -> {
                    joinRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("j", "joined " + s.get(MSGS).size())));
                })
                .edge(START, "a").edge(START, "b").edge("a", "join").edge("b", "join").edge("join", END);
        String thread = newThread();

        CompiledGraph first = shape.compile(options);
        Runs.Recorder rec = Runs.Recorder.start(first.stream(b.on(thread).input(Update.of(MSGS, Msg.user("u", "go")))));
        rec.awaitFirst(taskStarted("b"));
        Runs.Recorder.get(bEntered);
        // a has finished and its writes are stored against the step's checkpoint; b never will: the process dies
        Head head = awaitPendingWrites(first, thread);
        assertThat(head.checkpoint().next()).hasSize(2);
        rec.cancel();
        assertThat(rec.events()).noneMatch(GraphEvent::terminal);

        hang.set(false);
        CompiledGraph second = shape.compile(options); // a new process: nothing cached
        List<GraphEvent> resumed = run(second, b.on(thread));
        assertThat(startedNodes(resumed)).as("only b is run again, then the step goes on").containsExactly("b", "join");
        assertThat(aRuns).hasValue(1);
        assertThat(bRuns).hasValue(2);
        assertThat(joinRuns).hasValue(1);
        assertThat(ids(finished(resumed).state().get(MSGS))).containsExactly("u", "a", "b", "j");
        assertThat(((Msg) finished(resumed).state().get(MSGS).byId("j")).text()).isEqualTo("joined 3");
    }

    private static Head awaitPendingWrites(CompiledGraph graph, String thread) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Head> head = graph.options().checkpointer().head(thread, "").await().atMost(Duration.ofSeconds(5));
            if (head.isPresent() && !head.get().pendingWrites().isEmpty()) {
                return head.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the finished task's writes were never stored");
    }
}
