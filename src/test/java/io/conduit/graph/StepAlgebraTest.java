package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.Checkpoint;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.checkpoint.PendingWrite;
import io.conduit.checkpoint.Stored;
import io.conduit.checkpoint.TaskSpec;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.kernel.JsonCodec;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The step algebra alone, as LangGraph's test_algo.py tests {@code _algo.py}: folding, routing, checkpoint records
 * and task lists, on values, without a store or a run.
 */
class StepAlgebraTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");
    /** Concatenates writes: the result shows the order they were folded in. */
    private static final ReducerChannel<String> LOG = Channels.reduce("log", String.class, "", String::concat);
    private static final StateSchema SCHEMA = StateSchema.of(MSGS, COUNT, LOG);
    private static final StepAlgebra.Origin ORIGIN = new StepAlgebra.Origin("t-1", "", "run-1", Map.of("k", "v"));

    private static Node idle() {
        return (s, ctx) -> done(Update.none());
    }

    /** a → b, a ⇒ router (count), c → END, d → END, b → END; the router goes to c below 10, else to END. */
    private static CompiledGraph graph() {
        return StateGraph.of(SCHEMA)
                .node("a", idle()).node("b", idle()).node("c", idle()).node("d", idle())
                .edge(START, "a").edge("a", "b").edge("b", END).edge("c", END).edge("d", END)
                .route("a", s -> Route.to(s.get(COUNT) < 10 ? "c" : END), "c", END)
                .compile();
    }

    private static State state(Update... updates) {
        return StepAlgebra.fold(SCHEMA.initialState(), List.of(updates)).state();
    }

    // ---- fold

    @Test
    void foldAppliesAStepsWritesInTaskOrderThroughEachReducer() {
        State before = state(Update.of(LOG, "0"));
        Update first = Update.of(LOG, "a").set(COUNT, 1).set(MSGS, Msg.ai("m1", "one"));
        Update second = Update.of(COUNT, 2).set(LOG, "b").set(MSGS, Msg.ai("m2", "two"));

        StepAlgebra.Folded folded = StepAlgebra.fold(before, List.of(first, second));

        assertThat(folded.state().get(LOG)).isEqualTo("0ab");
        assertThat(folded.state().get(COUNT)).as("last value: the later task wins").isEqualTo(2);
        assertThat(ids(folded.state().get(MSGS))).containsExactly("m1", "m2");
        assertThat(folded.writes().get(SCHEMA.indexOf("log"))).containsExactly("a", "b");
        assertThat(folded.writes().get(SCHEMA.indexOf("count"))).containsExactly(1, 2);
        // pure: the state it started from is unchanged
        assertThat(before.get(LOG)).isEqualTo("0");
        assertThat(before.get(COUNT)).isZero();
    }

    @Test
    void foldInTheOtherTaskOrderGivesTheOtherResult() {
        State folded = StepAlgebra.fold(SCHEMA.initialState(), List.of(Update.of(LOG, "b"), Update.of(LOG, "a"))).state();
        assertThat(folded.get(LOG)).isEqualTo("ba");
    }

    @Test
    void aMessagesReducerReplacesByIdAndRemoves() {
        State before = state(Update.of(MSGS, Msg.user("u", "hi")).set(MSGS, Msg.ai("x", "old")));
        State after = StepAlgebra.fold(before, List.of(Update.of(MSGS, Msg.ai("x", "new")), Update.of(MSGS, new TestMessages.Remove("u")))).state();
        assertThat(ids(after.get(MSGS))).containsExactly("x");
        assertThat(((Msg) after.get(MSGS).byId("x")).text()).isEqualTo("new");
    }

    @Test
    void aStepWithoutWritesKeepsTheSameState() {
        State before = state(Update.of(COUNT, 3));
        StepAlgebra.Folded folded = StepAlgebra.fold(before, List.of(Update.none(), Update.none().goTo("c")));
        assertThat(folded.state()).isSameAs(before);
        assertThat(folded.writes()).isEmpty();
    }

    @Test
    void writesToAChannelTheStateLacksAreRefused() {
        Update u = Update.of(TestMessages.text("stranger"), "boo");
        assertThatThrownBy(() -> StepAlgebra.checkWrites(SCHEMA, u, "node x"))
                .isInstanceOfSatisfying(GraphException.class, e -> {
                    assertThat(e.code()).isEqualTo(GraphException.Code.UNKNOWN_CHANNEL);
                    assertThat(e.getMessage()).contains("node x", "stranger");
                });
        StepAlgebra.checkWrites(SCHEMA, Update.of(COUNT, 1), "node y");
    }

    // ---- route

    private static List<String> nodes(List<TaskSpec> next) {
        return next.stream().map(TaskSpec::node).toList();
    }

    @Test
    void staticEdgesThenRoutersOnTheStateAfterTheStep() {
        CompiledGraph g = graph();
        assertThat(nodes(StepAlgebra.route(g, List.of("a"), List.of(Update.none()), state(Update.of(COUNT, 1))))).containsExactly("b", "c");
        assertThat(nodes(StepAlgebra.route(g, List.of("a"), List.of(Update.none()), state(Update.of(COUNT, 10))))).containsExactly("b");
    }

    @Test
    void startRoutesTheInput() {
        assertThat(nodes(StepAlgebra.route(graph(), List.of(START), List.of(Update.of(COUNT, 1)), state()))).containsExactly("a");
    }

    @Test
    void endSchedulesNothing() {
        assertThat(StepAlgebra.route(graph(), List.of("b"), List.of(Update.none()), state())).isEmpty();
        assertThat(StepAlgebra.route(graph(), List.of("c", "d"), List.of(Update.none(), Update.none().goTo(END)), state())).isEmpty();
    }

    @Test
    void gotosComeFirstInTaskOrderAndTargetsAreDeduplicated() {
        List<TaskSpec> next = StepAlgebra.route(graph(), List.of("c", "a"),
                List.of(Update.none().goTo("d", "b"), Update.none().goTo("d")), state(Update.of(COUNT, 1)));
        // c: goto d, b; its edge to END. a: goto d (again); its edge to b (again); its router to c
        assertThat(nodes(next)).containsExactly("d", "b", "c");
        assertThat(next).allSatisfy(t -> assertThat(t.input()).isNull());
    }

    @Test
    void sendsComeAfterTheNodesWithTheirOwnInput() {
        CompiledGraph g = StateGraph.of(SCHEMA)
                .node("a", idle()).node("worker", idle())
                .edge(START, "a").edge("a", "worker").edge("worker", END)
                .route("a", s -> Route.send(List.of(new Send("worker", "x"), new Send("worker", "y"))), "worker")
                .compile();
        List<TaskSpec> next = StepAlgebra.route(g, List.of("a"), List.of(Update.none()), state());
        assertThat(nodes(next)).containsExactly("worker", "worker", "worker");
        assertThat(next.get(0).input()).isNull();
        assertThat(next.get(1).input().decode(JsonCodec.of(String.class))).isEqualTo("x");
        assertThat(next.get(2).input().decode(JsonCodec.of(String.class))).isEqualTo("y");
    }

    @Test
    void unknownTargetsFail() {
        CompiledGraph g = StateGraph.of(SCHEMA)
                .node("a", idle())
                .edge(START, "a")
                .route("a", s -> switch (s.get(COUNT)) {
                    case 0 -> Route.to(END);
                    case 1 -> Route.to("nowhere");
                    case 2 -> Route.send(List.of(new Send("ghost", 1)));
                    case 3 -> null;
                    default -> throw new IllegalStateException("boom");
                })
                .compile();
        assertThat(StepAlgebra.route(g, List.of("a"), List.of(Update.none()), state())).isEmpty();
        assertRouteFails(g, Update.none().goTo("elsewhere"), state(), GraphException.Code.UNKNOWN_TARGET, "elsewhere");
        assertRouteFails(g, Update.none(), state(Update.of(COUNT, 1)), GraphException.Code.UNKNOWN_TARGET, "nowhere");
        assertRouteFails(g, Update.none(), state(Update.of(COUNT, 2)), GraphException.Code.UNKNOWN_TARGET, "ghost");
        assertRouteFails(g, Update.none(), state(Update.of(COUNT, 3)), GraphException.Code.UNKNOWN_TARGET, "no route");
        assertRouteFails(g, Update.none(), state(Update.of(COUNT, 4)), GraphException.Code.NODE_FAILED, "boom");
    }

    private static void assertRouteFails(CompiledGraph g, Update u, State after, GraphException.Code code, String text) {
        assertThatThrownBy(() -> StepAlgebra.route(g, List.of("a"), List.of(u), after))
                .isInstanceOfSatisfying(GraphException.class, e -> {
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(text);
                });
    }

    // ---- checkpoints

    private static Checkpoint checkpoint(Checkpoint parent, boolean parentSnapshotted, StepAlgebra.Folded folded, List<TaskSpec> next) {
        String id = TimeOrderedIds.next();
        return StepAlgebra.checkpoint(ORIGIN, id, parent, parentSnapshotted, folded, next, parent == null ? CheckpointSource.INPUT : CheckpointSource.LOOP,
                parent == null ? -1 : parent.step() + 1, TimeOrderedIds.millisOf(id));
    }

    @Test
    void aCheckpointHoldsDeltasOfMessageChannelsAndValuesOfTheOthersOnlyForWhatTheStepWrote() {
        State before = state(Update.of(MSGS, Msg.user("u", "hi")), Update.of(LOG, "0"));
        StepAlgebra.Folded folded = StepAlgebra.fold(before, List.of(Update.of(MSGS, Msg.ai("m1", "one")).set(COUNT, 5), Update.of(MSGS, Msg.ai("m2", "two"))));

        Checkpoint cp = checkpoint(null, false, folded, List.of(TaskSpec.of("b")));

        assertThat(cp.values()).containsOnlyKeys("count");
        assertThat(cp.values().get("count").decode(COUNT.valueCodec())).isEqualTo(5);
        assertThat(cp.deltas()).containsOnlyKeys("messages");
        // the step's writes, not the whole list: the checkpoint's size follows the step
        assertThat(cp.deltas().get("messages").decode(MSGS.writesCodec())).containsExactly(Msg.ai("m1", "one"), Msg.ai("m2", "two"));
        assertThat(cp.threadId()).isEqualTo("t-1");
        assertThat(cp.ns()).isEmpty();
        assertThat(cp.runId()).isEqualTo("run-1");
        assertThat(cp.metadata()).isEqualTo(Map.of("k", "v"));
        assertThat(cp.parentId()).isNull();
        assertThat(cp.step()).isEqualTo(-1);
        assertThat(cp.source()).isEqualTo(CheckpointSource.INPUT);
        assertThat(cp.next()).extracting(TaskSpec::node).containsExactly("b");
        assertThat(cp.createdAtMillis()).isEqualTo(TimeOrderedIds.millisOf(cp.id()));
    }

    @Test
    void theChainSinceASnapshotGrowsByOneAndRestartsAfterASnapshot() {
        StepAlgebra.Folded nothing = StepAlgebra.fold(state(), List.of());
        Checkpoint first = checkpoint(null, false, nothing, List.of());
        Checkpoint second = checkpoint(first, false, nothing, List.of());
        Checkpoint third = checkpoint(second, false, nothing, List.of());
        Checkpoint afterSnapshot = checkpoint(third, true, nothing, List.of());

        assertThat(List.of(first, second, third, afterSnapshot)).extracting(Checkpoint::chainLength).containsExactly(1, 2, 3, 1);
        assertThat(third.parentId()).isEqualTo(second.id());
        assertThat(third.step()).isEqualTo(1);
        assertThat(third.values()).isEmpty();
        assertThat(third.deltas()).isEmpty();
    }

    @Test
    void aSnapshotIsDueEveryNCheckpointsWhateverTheStateHolds() {
        StepAlgebra.Folded nothing = StepAlgebra.fold(state(), List.of());
        Checkpoint cp = checkpoint(null, false, nothing, List.of());
        for (int i = 0; i < 3; i++) {
            cp = checkpoint(cp, false, nothing, List.of());
        }
        assertThat(cp.chainLength()).isEqualTo(4);
        assertThat(StepAlgebra.snapshotDue(cp, 4)).isTrue();
        assertThat(StepAlgebra.snapshotDue(cp, 3)).isTrue();
        assertThat(StepAlgebra.snapshotDue(cp, 5)).isFalse();
    }

    // ---- tasks

    @Test
    void theTasksOfACheckpointAreNamedByItAndTheirPosition() {
        Stored input = Stored.live("x", TaskRecord.ANY);
        Checkpoint cp = checkpoint(null, false, StepAlgebra.fold(state(), List.of()), List.of(TaskSpec.of("b"), new TaskSpec("worker", input)));

        List<Task> tasks = StepAlgebra.tasks(cp);

        assertThat(tasks).containsExactly(
                new Task(cp.id() + ".0", "b", null, 0),
                new Task(cp.id() + ".1", "worker", input, 1));
        assertThat(StepAlgebra.tasks(cp)).as("the same ids every time: a re-run finds its writes").isEqualTo(tasks);
    }

    @Test
    void anUpdateCarriesTheRecordsOfTheUnfinishedStepToTheNewCheckpoint() {
        StepAlgebra.Folded nothing = StepAlgebra.fold(state(), List.of());
        Checkpoint old = checkpoint(null, false, nothing, List.of(TaskSpec.of("a"), TaskSpec.of("b")));
        Checkpoint updated = checkpoint(old, false, nothing, old.next());
        Task oldA = StepAlgebra.tasks(old).get(0);
        Task oldB = StepAlgebra.tasks(old).get(1);
        List<PendingWrite> stored = new java.util.ArrayList<>(TaskRecord.finished(oldA, Update.of(COUNT, 7)));
        Interrupt asked = new Interrupt(oldB.id() + "#0", "ok?", "b", oldB.id(), Interrupt.When.DURING);
        stored.add(TaskRecord.interrupt(oldB, 0, asked));
        stored.add(TaskRecord.resume(oldB.id(), "b", 0, Stored.live("yes", TaskRecord.ANY)));
        Map<String, TaskRecord> records = TaskRecord.decode(stored, SCHEMA, "t-1");

        StepAlgebra.Carried carried = StepAlgebra.carryOver(records, updated);

        Task newA = StepAlgebra.tasks(updated).get(0);
        Task newB = StepAlgebra.tasks(updated).get(1);
        assertThat(carried.records()).containsOnlyKeys(newA.id(), newB.id());
        assertThat(carried.records().get(newA.id()).done).isTrue();
        assertThat(carried.records().get(newA.id()).update.writes()).extracting(Update.Write::value).containsExactly(7);
        assertThat(carried.records().get(newB.id()).interrupts).containsExactly(asked);
        assertThat(carried.records().get(newB.id()).pendingInterrupts()).isEmpty();
        assertThat(carried.writes()).allSatisfy(w -> assertThat(w.taskId()).isIn(newA.id(), newB.id()));
        // read back from the rewritten writes, the records are the same
        Map<String, TaskRecord> reread = TaskRecord.decode(carried.writes(), SCHEMA, "t-1");
        assertThat(reread.get(newA.id()).done).isTrue();
        assertThat(reread.get(newB.id()).resumes).hasSize(1);
        assertThat(reread.get(newB.id()).interrupts).containsExactly(asked);
        // the old records are left as they were
        assertThat(records).containsOnlyKeys(oldA.id(), oldB.id());
    }
}
