package io.conduit.graph;

import static io.conduit.graph.Runs.await;
import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.startedNodes;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link CompiledGraph#updateState}: an update as a node, through reducers and routing, over every store. */
class UpdateStateTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");
    private static final StateSchema SCHEMA = StateSchema.of(MSGS, COUNT);

    private static Node says(String name) {
        return (s, ctx) -> done(Update.of(MSGS, Msg.ai(name + "-" + s.get(MSGS).size(), name)));
    }

    /** START → a → b, then a router after b: to c when the count is above 0 (only updates raise it), else END; c → END. */
    private static CompiledGraph graph(Backends.Backend b) {
        return StateGraph.of(SCHEMA)
                .node("a", says("a"))
                .node("b", says("b"))
                .node("c", says("c"))
                .edge(START, "a").edge("a", "b").edge("c", END)
                .route("b", s -> Route.to(s.get(COUNT) > 0 ? "c" : END), "c", END)
                .compile(b.options());
    }

    private static Update user(String id) {
        return Update.of(MSGS, Msg.user(id, id));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anUpdateAsANodeRoutesFromItAndARunWithoutInputContinuesThere(Backends.Backend b) {
        CompiledGraph graph = graph(b);
        String thread = newThread();
        String end = finished(run(graph, b.on(thread).input(user("u")))).checkpointId();

        String id = await(graph.updateState(thread, Update.of(MSGS, Msg.ai("x", "edited")), "a", null));

        StateSnapshot s = state(graph, thread);
        assertThat(s.checkpointId()).isEqualTo(id);
        assertThat(s.source()).isEqualTo(CheckpointSource.UPDATE);
        assertThat(s.parentCheckpointId()).isEqualTo(end);
        assertThat(s.next()).containsExactly("b");
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "a-1", "b-2", "x");

        List<GraphEvent> events = run(graph, b.on(thread));
        assertThat(startedNodes(events)).containsExactly("b");
        assertThat(ids(finished(events).state().get(MSGS))).containsExactly("u", "a-1", "b-2", "x", "b-4");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void theUpdateGoesThroughTheReducersAndTheRoutersSeeItsResult(Backends.Backend b) {
        CompiledGraph graph = graph(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u")));

        // replaces a's message by id (the messages reducer) and raises the counter the router after b reads
        await(graph.updateState(thread, Update.of(MSGS, Msg.ai("a-1", "rewritten")).set(COUNT, 1), "b", null));

        StateSnapshot s = state(graph, thread);
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "a-1", "b-2");
        assertThat(((Msg) s.values().get(MSGS).byId("a-1")).text()).isEqualTo("rewritten");
        assertThat(s.next()).containsExactly("c");
        assertThat(startedNodes(run(graph, b.on(thread)))).containsExactly("c");

        // as b again, with the counter back at 0: the router ends the run, so nothing is left to do
        await(graph.updateState(thread, Update.of(COUNT, 0), "b", null));
        assertThat(state(graph, thread).next()).isEmpty();
        assertThat(startedNodes(run(graph, b.on(thread)))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void withoutAsNodeTheUpdateIsFromTheNodeThatWroteTheCheckpointOrTheInput(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", says("a")).node("b", says("b"))
                .edge(START, "a").edge("a", "b").edge("b", END)
                .compile(b.options().interruptBefore("b"));
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("u"))));
        assertThat(state(graph, thread).next()).containsExactly("b");

        // the head was written by a's step: as a, the update routes to b again
        await(graph.updateState(thread, Update.of(COUNT, 5), null, null));
        assertThat(state(graph, thread).next()).containsExactly("b");
        assertThat(state(graph, thread).values().get(COUNT)).isEqualTo(5);

        // the head is now an update, written by no node: the caller must say
        assertThatThrownBy(() -> await(graph.updateState(thread, Update.of(COUNT, 6), null, null)))
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).isEqualTo(GraphException.Code.INVALID_REQUEST));

        // on an input checkpoint, the update is an input too: it routes from START
        String input = history(graph, thread).getLast().checkpointId();
        await(graph.updateState(thread, user("u2"), null, input));
        StateSnapshot s = state(graph, thread);
        assertThat(s.next()).containsExactly("a");
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "u2");
    }

    /** As LangGraph's: an update on a thread with no checkpoint is its first, on the initial state (a thread's supersteps). */
    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anUpdateOfAThreadWithoutCheckpointsIsItsFirst(Backends.Backend b) {
        CompiledGraph graph = graph(b);
        String thread = newThread();
        String first = await(graph.updateState(thread, user("u"), null, null));
        StateSnapshot s = state(graph, thread);
        assertThat(s.checkpointId()).isEqualTo(first);
        assertThat(s.parentCheckpointId()).isNull();
        assertThat(s.source()).isEqualTo(CheckpointSource.UPDATE);
        assertThat(s.step()).isEqualTo(-1);
        assertThat(s.next()).containsExactly("a"); // from START, as an input
        await(graph.updateState(thread, Update.of(MSGS, Msg.ai("x", "answered")), "b", null));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "x");
        // a run with input starts its turn on that state
        assertThat(ids(finished(run(graph, b.on(thread).input(user("v")))).state().get(MSGS))).containsExactly("u", "x", "v", "a-3", "b-4");

        String other = newThread();
        await(graph.updateState(other, Update.of(MSGS, Msg.ai("y", "said")), "a", null));
        assertThat(state(graph, other).next()).containsExactly("b");
        assertThat(startedNodes(run(graph, b.on(other)))).containsExactly("b");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anUpdateOfAnOlderCheckpointForksTheThreadThere(Backends.Backend b) {
        CompiledGraph graph = graph(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u1")));
        String endOfTurn2 = finished(run(graph, b.on(thread).input(user("u2")))).checkpointId();
        List<StateSnapshot> before = history(graph, thread);
        StateSnapshot afterA = before.stream().filter(s -> ids(s.values().get(MSGS)).equals(List.of("u1", "a-1"))).findFirst().orElseThrow();

        String id = await(graph.updateState(thread, Update.of(MSGS, Msg.ai("y", "forked")), "a", afterA.checkpointId()));

        StateSnapshot head = state(graph, thread);
        assertThat(head.checkpointId()).isEqualTo(id);
        assertThat(head.parentCheckpointId()).isEqualTo(afterA.checkpointId());
        assertThat(ids(head.values().get(MSGS))).containsExactly("u1", "a-1", "y");
        assertThat(head.next()).containsExactly("b");
        // the old branch is intact
        assertThat(ids(await(graph.state(thread, endOfTurn2)).orElseThrow().values().get(MSGS)))
                .containsExactly("u1", "a-1", "b-2", "u2", "a-4", "b-5");
        assertThat(history(graph, thread)).hasSize(before.size() + 1);

        assertThat(ids(finished(run(graph, b.on(thread))).state().get(MSGS))).containsExactly("u1", "a-1", "y", "b-3");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anUpdateAsTheInterruptedNodeAnswersInItsPlace(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("ask", (s, ctx) -> done(Update.of(MSGS, Msg.ai("answer", ctx.interrupt("?", String.class)))))
                .node("after", says("after"))
                .edge(START, "ask").edge("ask", "after").edge("after", END)
                .compile(b.options());
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("u"))));
        assertThat(state(graph, thread).interrupts()).hasSize(1);

        await(graph.updateState(thread, Update.of(MSGS, Msg.ai("answer", "typed by hand")), "ask", null));

        StateSnapshot s = state(graph, thread);
        assertThat(s.interrupts()).isEmpty();
        assertThat(s.next()).containsExactly("after");
        List<GraphEvent> events = run(graph, b.on(thread));
        assertThat(startedNodes(events)).containsExactly("after");
        assertThat(ids(finished(events).state().get(MSGS))).containsExactly("u", "answer", "after-2");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void badUpdatesFailAndStoreNothing(Backends.Backend b) {
        CompiledGraph graph = graph(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u")));
        String head = state(graph, thread).checkpointId();

        assertFails(graph.updateState(thread, Update.of(COUNT, 1), "nope", null), GraphException.Code.INVALID_REQUEST);
        assertFails(graph.updateState(newThread(), Update.of(COUNT, 1), "a", TimeOrderedIds.next()), GraphException.Code.UNKNOWN_THREAD);
        assertFails(graph.updateState(thread, Update.of(COUNT, 1), "a", TimeOrderedIds.next()), GraphException.Code.UNKNOWN_THREAD);
        assertFails(graph.updateState(thread, Update.of(TestMessages.text("stranger"), "x"), "a", null), GraphException.Code.UNKNOWN_CHANNEL);
        assertFails(graph.updateState(thread, Update.none().goTo("ghost"), "a", null), GraphException.Code.UNKNOWN_TARGET);

        assertThat(state(graph, thread).checkpointId()).isEqualTo(head);
    }

    private static void assertFails(io.smallrye.mutiny.Uni<String> update, GraphException.Code code) {
        assertThatThrownBy(() -> await(update))
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).as(e.getMessage()).isEqualTo(code));
    }
}
