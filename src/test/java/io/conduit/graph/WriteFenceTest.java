package io.conduit.graph;

import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A run's {@link WriteFence}: every write of the run waits for it, its subgraphs' included, and a refused write is
 * not attempted (in {@code SYNC} mode the run stops at it; in {@code ASYNC} mode at the next step). What a worker that lost its lease on a run relies on not to write over the run's new holder.
 */
class WriteFenceTest {

    private static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");

    /** Admits writes until {@link #close}d; then refuses each, as a holder that lost its run does. */
    private static final class Fence implements WriteFence {
        final AtomicBoolean open = new AtomicBoolean(true);
        int admitted;

        @Override
        public Uni<Void> admit() {
            if (!open.get()) {
                return Uni.createFrom().failure(new IllegalStateException("the run is held by another worker"));
            }
            admitted++;
            return Uni.createFrom().voidItem();
        }

        Uni<Update> close(String note) {
            open.set(false);
            return Uni.createFrom().item(Update.of(NOTE, note));
        }
    }

    private final List<String> ran = new CopyOnWriteArrayList<>();

    private Node note(String name) {
        return (s, ctx) -> {
            ran.add(name);
            return Uni.createFrom().item(Update.of(NOTE, s.get(NOTE) + name + ";"));
        };
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRefusedWriteIsNotStoredAndTheRunStopsThere(Backends.Backend b) {
        Fence fence = new Fence();
        CompiledGraph graph = StateGraph.of(StateSchema.of(NOTE))
                .node("first", (s, ctx) -> {
                    ran.add("first");
                    return fence.close("first;");
                })
                .node("second", note("second"))
                .edge(START, "first").edge("first", "second").edge("second", END)
                .compile(b.options());
        String thread = newThread();

        failed(run(graph, b.on(thread).input(Update.of(NOTE, "in;")).fence(fence)), GraphException.Code.PERSISTENCE_FAILED.wire());

        assertThat(fence.admitted).as("the input's checkpoint, before the fence closed").isPositive();
        assertThat(state(graph, thread).values().get(NOTE)).as("nothing of the step whose write was refused").isEqualTo("in;");
        if (b.durability() == Durability.SYNC) {
            assertThat(ran).as("a step waits for its write").containsExactly("first");
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSubgraphsWritesPassTheParentRunsFence(Backends.Backend b) {
        Fence fence = new Fence();
        CompiledGraph sub = StateGraph.of(StateSchema.of(NOTE))
                .node("inner1", (s, ctx) -> {
                    ran.add("inner1");
                    return fence.close(s.get(NOTE) + "inner1;");
                })
                .node("inner2", note("inner2"))
                .edge(START, "inner1").edge("inner1", "inner2").edge("inner2", END)
                .compile();
        CompiledGraph parent = StateGraph.of(StateSchema.of(NOTE))
                .node("sub", sub)
                .node("after", note("after"))
                .edge(START, "sub").edge("sub", "after").edge("after", END)
                .compile(b.options());

        failed(run(parent, b.on(newThread()).input(Update.of(NOTE, "in;")).fence(fence)), GraphException.Code.PERSISTENCE_FAILED.wire());

        if (b.durability() == Durability.SYNC) {
            assertThat(ran).as("the subgraph stopped at its refused write").containsExactly("inner1");
        }
    }
}
