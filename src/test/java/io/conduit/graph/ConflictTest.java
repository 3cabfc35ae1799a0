package io.conduit.graph;

import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Two runs advancing one thread from the same head: the store takes one, the other fails with "conflict". */
class ConflictTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    private final Map<String, CompletableFuture<Void>> gates = new ConcurrentHashMap<>();
    private final CountDownLatch bothInside = new CountDownLatch(2);

    /** START → work → END; work waits for the gate of its run, then writes a message named after the run. */
    private CompiledGraph graph(Backends.Backend b) {
        return StateGraph.of(StateSchema.of(MSGS))
                .node("work", (s, ctx) -> {
                    CompletableFuture<Void> gate = gates.computeIfAbsent(ctx.runId(), k -> new CompletableFuture<>());
                    bothInside.countDown();
                    return Uni.createFrom().completionStage(gate).map(v -> Update.of(MSGS, Msg.ai("by-" + ctx.runId(), "work")));
                })
                .edge(START, "work").edge("work", END)
                .compile(b.options());
    }

    /** A thread whose head is waiting before "work", so the runs below write nothing before the node. */
    private static String threadBeforeWork(CompiledGraph graph, Backends.Backend b) {
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go"))).interruptBefore("work")));
        return thread;
    }

    private void awaitBothInside() throws InterruptedException {
        assertThat(bothInside.await(Runs.TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)).as("both runs reached the node").isTrue();
    }

    private CompletableFuture<Void> gate(String runId) {
        return gates.computeIfAbsent(runId, k -> new CompletableFuture<>());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void theRunThatStoresFirstWinsAndTheOtherFailsWithConflict(Backends.Backend b) throws Exception {
        CompiledGraph graph = graph(b);
        String thread = threadBeforeWork(graph, b);
        int historyBefore = history(graph, thread).size();

        String firstId = UUID.randomUUID().toString();
        String secondId = UUID.randomUUID().toString();
        Runs.Recorder first = Runs.Recorder.start(graph.stream(b.on(thread).runId(firstId)));
        Runs.Recorder second = Runs.Recorder.start(graph.stream(b.on(thread).runId(secondId)));
        awaitBothInside();
        gate(firstId).complete(null);
        GraphEvent firstEnd = first.awaitEnd();
        gate(secondId).complete(null);
        GraphEvent secondEnd = second.awaitEnd();

        assertThat(firstEnd).isInstanceOf(GraphEvent.RunFinished.class);
        assertThat(secondEnd).isInstanceOfSatisfying(GraphEvent.RunFailed.class, f -> assertThat(f.code()).isEqualTo("conflict"));
        List<StateSnapshot> history = history(graph, thread);
        assertThat(history).hasSize(historyBefore + 1);
        assertThat(history).allSatisfy(s -> assertThat(ids(s.values().get(MSGS))).doesNotContain("by-" + secondId));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "by-" + firstId);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void releasedTogetherExactlyOneRunFinishes(Backends.Backend b) throws Exception {
        CompiledGraph graph = graph(b);
        String thread = threadBeforeWork(graph, b);
        int historyBefore = history(graph, thread).size();

        String one = UUID.randomUUID().toString();
        String two = UUID.randomUUID().toString();
        Runs.Recorder runOne = Runs.Recorder.start(graph.stream(b.on(thread).runId(one)));
        Runs.Recorder runTwo = Runs.Recorder.start(graph.stream(b.on(thread).runId(two)));
        awaitBothInside();
        CompletableFuture.allOf(
                CompletableFuture.runAsync(() -> gate(one).complete(null)),
                CompletableFuture.runAsync(() -> gate(two).complete(null))).get(10, TimeUnit.SECONDS);
        List<GraphEvent> ends = List.of(runOne.awaitEnd(), runTwo.awaitEnd());

        assertThat(ends).filteredOn(GraphEvent.RunFinished.class::isInstance).hasSize(1);
        assertThat(ends).filteredOn(GraphEvent.RunFailed.class::isInstance).singleElement()
                .satisfies(f -> assertThat(((GraphEvent.RunFailed) f).code()).isEqualTo("conflict"));
        String winner = ends.get(0) instanceof GraphEvent.RunFinished ? one : two;
        String loser = winner.equals(one) ? two : one;
        List<StateSnapshot> history = history(graph, thread);
        assertThat(history).hasSize(historyBefore + 1);
        assertThat(history).allSatisfy(s -> assertThat(ids(s.values().get(MSGS))).doesNotContain("by-" + loser));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "by-" + winner);
    }
}
