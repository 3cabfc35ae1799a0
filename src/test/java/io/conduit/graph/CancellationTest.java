package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.historyIds;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.Runs.taskStarted;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Cancelling a run's subscription cancels the node in flight; what the thread had stored stays. */
class CancellationTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    /** Several times, as a cancellation that arrives while the run is subscribing to the node once went missing. */
    private static final int ROUNDS = 10;

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void cancellingTheSubscriptionCancelsTheNodeAndKeepsTheCheckpointBeforeIt(Backends.Backend b) {
        for (int round = 0; round < ROUNDS; round++) {
            cancelOnce(b);
        }
    }

    private static void cancelOnce(Backends.Backend b) {
        AtomicBoolean hang = new AtomicBoolean(true);
        CompletableFuture<Void> entered = new CompletableFuture<>();
        CompletableFuture<Void> cancelled = new CompletableFuture<>();
        CompiledGraph graph = StateGraph.of(StateSchema.of(MSGS))
                .node("a", (s, ctx) -> done(Update.of(MSGS, Msg.ai("a", "a"))))
                .node("b", (s, ctx) -> {
                    if (!hang.get()) {
                        return done(Update.of(MSGS, Msg.ai("b", "b")));
                    }
                    entered.complete(null);
                    return Uni.createFrom().<Update>nothing().onCancellation().invoke(() -> cancelled.complete(null));
                })
                .edge(START, "a").edge("a", "b").edge("b", END)
                .compile(b.options());
        String thread = newThread();
        // the first run stops before b (and has stored all it wrote when it says so) ...
        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go"))).interruptBefore("b")));
        List<String> historyBefore = historyIds(graph, thread);

        // ... the second one runs b, which never completes, and is cancelled
        Runs.Recorder rec = Runs.Recorder.start(graph.stream(b.on(thread)));
        rec.awaitFirst(taskStarted("b"));
        Runs.Recorder.get(entered); // the node itself is running, not only announced
        assertThat(cancelled).isNotDone();
        rec.cancel();

        Runs.Recorder.get(cancelled);
        assertThat(rec.events()).noneMatch(GraphEvent::terminal);
        StateSnapshot s = state(graph, thread);
        assertThat(s.checkpointId()).isEqualTo(stop.checkpointId());
        assertThat(s.next()).containsExactly("b");
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "a");
        assertThat(historyIds(graph, thread)).isEqualTo(historyBefore);

        // the thread goes on from there
        hang.set(false);
        List<GraphEvent> end = run(graph, b.on(thread));
        assertThat(ids(finished(end).state().get(MSGS))).containsExactly("u", "a", "b");
    }
}
