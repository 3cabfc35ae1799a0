package io.conduit.graph;

import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.Runs.taskStarted;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.Head;
import io.conduit.checkpoint.ForwardingCheckpointer;
import io.conduit.checkpoint.InMemoryCheckpointer;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A run cancelled while its checkpoint writes are still on their way (durability {@code async}): the next run on the
 * thread, started at once, must not read the head from before those writes and then collide with them ("conflict");
 * it starts from the cancelled run's last checkpoint. {@link CompiledGraph#settled} says when they have landed.
 */
class CancelledWritesTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    /** A store whose next {@code put} is held until released (or 300 ms pass): a write in flight. */
    static final class HeldPuts extends ForwardingCheckpointer {
        final AtomicBoolean holdNext = new AtomicBoolean();
        final AtomicReference<CompletableFuture<Void>> held = new AtomicReference<>();
        /** A head read releases the held put just after reading: the worst moment for the reader. */
        volatile boolean releaseOnHeadRead;

        HeldPuts() {
            super(new InMemoryCheckpointer());
        }

        @Override
        public Uni<Void> put(Checkpoint checkpoint, String expectedHead) {
            if (holdNext.compareAndSet(true, false)) {
                CompletableFuture<Void> gate = new CompletableFuture<>();
                held.set(gate);
                gate.completeOnTimeout(null, 300, TimeUnit.MILLISECONDS);
                return Uni.createFrom().completionStage(gate).flatMap(v -> store.put(checkpoint, expectedHead));
            }
            return store.put(checkpoint, expectedHead);
        }

        @Override
        public Uni<Optional<Head>> head(String threadId, String ns) {
            return store.head(threadId, ns).invoke(h -> {
                CompletableFuture<Void> gate = held.get();
                if (releaseOnHeadRead && gate != null) {
                    gate.complete(null);
                }
            });
        }
    }

    private final HeldPuts store = new HeldPuts();
    private final AtomicBoolean hang = new AtomicBoolean(true);

    /** START → a → b → END; b hangs while {@link #hang} is set. */
    private CompiledGraph graph() {
        return StateGraph.of(StateSchema.of(MSGS))
                .node("a", (s, ctx) -> {
                    store.holdNext.set(true); // the checkpoint of this step stays in flight
                    return Runs.done(Update.of(MSGS, Msg.ai("a", "a")));
                })
                .node("b", (s, ctx) -> hang.get() ? Uni.createFrom().nothing() : Runs.done(Update.of(MSGS, Msg.ai("b", "b"))))
                .edge(START, "a").edge("a", "b").edge("b", END)
                .compile(GraphOptions.with(store));
    }

    /** Runs a, then cancels the run in b while a's checkpoint is still being written. */
    private String cancelledWithAWriteInFlight(CompiledGraph graph) {
        String thread = newThread();
        Runs.Recorder rec = Runs.Recorder.start(graph.stream(RunRequest.on(thread).durability(Durability.ASYNC)
                .input(Update.of(MSGS, Msg.user("u", "go")))));
        rec.awaitFirst(taskStarted("b"));
        assertThat(store.held.get()).as("a's checkpoint is in flight").isNotNull().isNotDone();
        rec.cancel();
        return thread;
    }

    @Test
    void theNextRunStartsFromTheCancelledRunsLastCheckpointWithoutAConflict() {
        CompiledGraph graph = graph();
        String thread = cancelledWithAWriteInFlight(graph);
        store.releaseOnHeadRead = true;
        hang.set(false);
        List<GraphEvent> next = run(graph, RunRequest.on(thread).durability(Durability.ASYNC));
        // it ran b after a's checkpoint, not a again from the input's
        assertThat(ids(finished(next).state().get(MSGS))).containsExactly("u", "a", "b");
        assertThat(Runs.startedNodes(next)).containsExactly("b");
    }

    @Test
    void settledCompletesOnceTheCancelledRunsWritesHaveLanded() {
        CompiledGraph graph = graph();
        String thread = cancelledWithAWriteInFlight(graph);
        Uni<Void> settled = graph.settled(thread);
        CompletableFuture<Void> done = settled.subscribeAsCompletionStage();
        assertThat(done).isNotDone();
        store.held.get().complete(null);
        Runs.await(settled.ifNoItem().after(Duration.ofSeconds(5)).fail());
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "a");
        assertThat(state(graph, thread).next()).containsExactly("b");
        // nothing in flight: at once
        assertThat(graph.settled(newThread()).subscribeAsCompletionStage()).isDone();
    }
}
