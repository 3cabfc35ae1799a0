package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.CheckpointChain;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.graph.TestMessages.Remove;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Snapshots every few steps, reading a long thread back without the state cache, pruning old checkpoints, and the
 * pending writes of steps that are done.
 */
class CompactionTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");

    /**
     * A loop a → a of 20 steps. Each step replaces a "status" message and sets the counter; every third step appends
     * a message; step 12 removes the one step 6 added.
     */
    private static StateGraph loop() {
        return StateGraph.of(StateSchema.of(MSGS, COUNT))
                .node("a", (s, ctx) -> {
                    int n = s.get(COUNT) + 1;
                    Update u = Update.of(COUNT, n).set(MSGS, Msg.ai("status", "step " + n));
                    if (n % 3 == 0) {
                        u = u.set(MSGS, Msg.ai("m" + n, "note " + n));
                    }
                    if (n == 12) {
                        u = u.set(MSGS, new Remove("m6"));
                    }
                    return done(u);
                })
                .edge(START, "a")
                .route("a", s -> Route.to(s.get(COUNT) < 20 ? "a" : END), "a", END);
    }

    private static void assertSameState(StateSnapshot actual, StateSnapshot expected) {
        assertThat(actual.checkpointId()).isEqualTo(expected.checkpointId());
        assertThat(actual.values().asMap()).isEqualTo(expected.values().asMap());
        assertThat(actual.next()).isEqualTo(expected.next());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aLongThreadReadsBackTheSameThroughAFreshGraph(Backends.Backend b) {
        GraphOptions options = b.options().snapshotEvery(4);
        CompiledGraph first = loop().compile(options);
        String thread = newThread();

        List<GraphEvent> events = run(first, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go"))));

        State end = finished(events).state();
        assertThat(end.get(COUNT)).isEqualTo(20);
        assertThat(ids(end.get(MSGS))).containsExactly("u", "status", "m3", "m9", "m12", "m15", "m18");
        assertThat(((Msg) end.get(MSGS).byId("status")).text()).isEqualTo("step 20");

        CompiledGraph fresh = loop().compile(options);
        StateSnapshot viaFirst = state(first, thread);
        StateSnapshot viaFresh = state(fresh, thread);
        assertSameState(viaFresh, viaFirst);
        assertThat(viaFresh.values().get(MSGS)).isEqualTo(end.get(MSGS));

        List<StateSnapshot> historyFirst = history(first, thread);
        List<StateSnapshot> historyFresh = history(fresh, thread);
        assertThat(historyFirst).hasSize(21);
        assertThat(historyFresh).hasSize(21);
        for (int i = 0; i < historyFirst.size(); i++) {
            assertSameState(historyFresh.get(i), historyFirst.get(i));
            assertThat(historyFresh.get(i).values().get(COUNT)).isEqualTo(20 - i);
        }

        // snapshots keep the read of the newest state short
        CheckpointChain chain = Runs.await(options.checkpointer().chain(thread, "", viaFirst.checkpointId())).orElseThrow();
        assertThat(chain.base()).as("a snapshot was stored").isNotEmpty();
        assertThat(chain.since().size()).isLessThan(historyFirst.size() / 2);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void pruningDeletesOldCheckpointsAndKeepsTheStateReadable(Backends.Backend b) {
        GraphOptions options = b.options().snapshotEvery(4);
        CompiledGraph graph = loop().compile(options);
        String thread = newThread();
        run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go"))));
        List<StateSnapshot> before = history(graph, thread);

        long deleted = Runs.await(graph.prune(thread, 3));

        assertThat(deleted).isEqualTo(before.size() - 3);
        List<StateSnapshot> after = history(graph, thread);
        assertThat(after).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertSameState(after.get(i), before.get(i));
        }
        CompiledGraph fresh = loop().compile(options);
        assertSameState(state(fresh, thread), before.get(0));
        List<StateSnapshot> afterFresh = history(fresh, thread);
        for (int i = 0; i < 3; i++) {
            assertSameState(afterFresh.get(i), before.get(i));
        }

        // the pruned thread takes another turn
        List<GraphEvent> next = run(fresh, b.on(thread).input(Update.of(MSGS, Msg.user("u2", "again"))));
        assertThat(ids(finished(next).state().get(MSGS))).containsExactly("u", "status", "m3", "m9", "m12", "m15", "m18", "u2", "m21");
        assertThat(finished(next).state().get(COUNT)).isEqualTo(21);
    }

    /**
     * A chat whose state grows as fast as its history (each turn adds two messages): a read of the newest state, as a
     * fresh process makes it, replays at most {@code snapshotEvery} checkpoints at turn 30 as at turn 3.
     */
    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aColdReadReplaysAtMostSnapshotEveryCheckpointsHoweverLongTheThread(Backends.Backend b) {
        GraphOptions options = b.options().snapshotEvery(5);
        CompiledGraph graph = StateGraph.of(StateSchema.of(MSGS))
                .node("reply", (s, ctx) -> done(Update.of(MSGS, Msg.ai("re-" + s.get(MSGS).last().id(), "ok"))))
                .edge(START, "reply").edge("reply", END)
                .compile(options);
        String thread = newThread();
        for (int turn = 1; turn <= 30; turn++) {
            run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u" + turn, "hi"))));
            String head = state(graph, thread).checkpointId();
            CheckpointChain chain = Runs.await(options.checkpointer().chain(thread, "", head)).orElseThrow();
            assertThat(chain.since().size()).as("checkpoints replayed to read turn %d", turn).isLessThanOrEqualTo(5);
            if (turn >= 3) {
                assertThat(chain.base()).as("a snapshot by turn %d", turn).isNotEmpty();
            }
        }
        StateSnapshot cold = state(loopOf(graph, options), thread);
        assertThat(cold.values().get(MSGS).size()).isEqualTo(60);
        assertThat(history(graph, thread)).hasSize(60);
    }

    /** The same graph, compiled again: a process that has not cached the thread's state. */
    private static CompiledGraph loopOf(CompiledGraph graph, GraphOptions options) {
        return StateGraph.of(graph.schema())
                .node("reply", (s, ctx) -> done(Update.none()))
                .edge(START, "reply").edge("reply", END)
                .compile(options);
    }

    /** The writes tasks store while a step is unfinished go once the step's checkpoint is stored. */
    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aStepsPendingWritesAreDeletedOnceItsCheckpointIsStored(Backends.Backend b) {
        GraphOptions options = b.options();
        CompiledGraph graph = StateGraph.of(StateSchema.of(MSGS, COUNT))
                .node("left", (s, ctx) -> done(Update.of(MSGS, Msg.ai("l", "left"))))
                .node("right", (s, ctx) -> done(Update.of(MSGS, Msg.ai("r", "right"))))
                .node("ask", (s, ctx) -> done(Update.of(MSGS, Msg.ai("a", ctx.interrupt("?", String.class)))))
                .edge(START, "left").edge(START, "right").edge("left", "ask").edge("right", "ask").edge("ask", END)
                .compile(options);
        String thread = newThread();

        // the parallel step stores each task's writes as it finishes; the interrupt is stored against its checkpoint
        GraphEvent.Interrupted stop = Runs.interrupted(run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go")))));
        String input = history(graph, thread).getLast().checkpointId();
        assertThat(Runs.await(options.checkpointer().get(thread, "", input)).orElseThrow().pendingWrites())
                .as("the parallel step is done").isEmpty();
        assertThat(Runs.await(options.checkpointer().get(thread, "", stop.checkpointId())).orElseThrow().pendingWrites())
                .as("the interrupted step is not").isNotEmpty();

        finished(run(graph, b.on(thread).command(Command.resume("yes"))));

        for (StateSnapshot s : history(graph, thread)) {
            assertThat(Runs.await(options.checkpointer().get(thread, "", s.checkpointId())).orElseThrow().pendingWrites())
                    .as("pending writes of checkpoint %s (%s, step %d)", s.checkpointId(), s.source(), s.step()).isEmpty();
        }
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "l", "r", "a");
    }
}
