package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.historyIds;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.startedNodes;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Conditional edges, cycles, the recursion limit, unknown targets and goto. */
class RoutingTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");
    private static final LastValueChannel<String> TARGET = TestMessages.text("target");
    private static final StateSchema SCHEMA = StateSchema.of(MSGS, COUNT, TARGET);

    private static Node says(String name) {
        return (s, ctx) -> done(Update.of(MSGS, Msg.ai(name + "@" + ctx.step(), name)));
    }

    private static final Node INCREMENT = (s, ctx) -> done(Update.of(COUNT, s.get(COUNT) + 1));

    private static Update user(String text) {
        return Update.of(MSGS, Msg.user("u-" + text, text));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRouterPicksTheNextNodeFromTheState(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("classify", (s, ctx) -> done(Update.none()))
                .node("weather", says("weather"))
                .node("chat", says("chat"))
                .edge(START, "classify")
                .route("classify", s -> Route.to(((Msg) s.get(MSGS).last()).text().contains("rain") ? "weather" : "chat"),
                        "weather", "chat")
                .edge("weather", END).edge("chat", END)
                .compile(b.options());

        List<GraphEvent> rainy = run(graph, b.on(newThread()).input(user("will it rain")));
        List<GraphEvent> chatty = run(graph, b.on(newThread()).input(user("hi there")));

        assertThat(startedNodes(rainy)).containsExactly("classify", "weather");
        assertThat(startedNodes(chatty)).containsExactly("classify", "chat");
        assertThat(ids(finished(rainy).state().get(MSGS))).containsExactly("u-will it rain", "weather@1");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aCycleRunsUntilItsRouterLeaves(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", INCREMENT)
                .node("b", says("b"))
                .edge(START, "a").edge("a", "b")
                .route("b", s -> Route.to(s.get(COUNT) < 3 ? "a" : END), "a", END)
                .compile(b.options());
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(user("go")));

        assertThat(startedNodes(events)).containsExactly("a", "b", "a", "b", "a", "b");
        assertThat(finished(events).state().get(COUNT)).isEqualTo(3);
        assertThat(state(graph, thread).values().get(COUNT)).isEqualTo(3);
        assertThat(ofType(events, GraphEvent.TaskStarted.class)).extracting(e -> e.tag().step())
                .containsExactly(0, 1, 2, 3, 4, 5);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aCycleThatNeverEndsHitsTheRecursionLimit(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", INCREMENT)
                .edge(START, "a")
                .route("a", s -> Route.to("a"), "a", END)
                .compile(b.options().recursionLimit(5));
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(user("go")));

        failed(events, "recursion_limit");
        assertThat(startedNodes(events)).hasSize(5);
        StateSnapshot s = state(graph, thread);
        assertThat(s.values().get(COUNT)).isEqualTo(5);
        assertThat(s.next()).containsExactly("a");
        assertThat(historyIds(graph, thread)).hasSize(6);

        // a request's own limit overrides the graph's
        List<GraphEvent> more = run(graph, b.on(thread).recursionLimit(2));
        failed(more, "recursion_limit");
        assertThat(state(graph, thread).values().get(COUNT)).isEqualTo(7);
    }

    /** a's router goes wherever the state's "target" channel says. */
    private static CompiledGraph routesToTarget(Backends.Backend b) {
        return StateGraph.of(SCHEMA)
                .node("a", says("a"))
                .edge(START, "a")
                .route("a", s -> Route.to(s.get(TARGET).isEmpty() ? END : s.get(TARGET)))
                .compile(b.options());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRouterNamingAnUnknownNodeFailsAndWritesNoCheckpoint(Backends.Backend b) {
        CompiledGraph graph = routesToTarget(b);
        String thread = newThread();
        // stop before a, so the failing run below starts from a stored checkpoint and has nothing else to write
        interrupted(run(graph, b.on(thread).input(user("go").set(TARGET, "nowhere")).interruptBefore("a")));
        List<String> before = historyIds(graph, thread);
        String headBefore = state(graph, thread).checkpointId();

        List<GraphEvent> events = run(graph, b.on(thread));

        assertThat(failed(events, "unknown_target").message()).contains("nowhere");
        assertThat(historyIds(graph, thread)).isEqualTo(before);
        assertThat(state(graph, thread).checkpointId()).isEqualTo(headBefore);
        assertThat(state(graph, thread).next()).containsExactly("a");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anUnknownTargetInANewTurnKeepsOnlyTheTurnsInput(Backends.Backend b) {
        CompiledGraph graph = routesToTarget(b);
        String thread = newThread();
        finished(run(graph, b.on(thread).input(user("first"))));
        List<String> before = historyIds(graph, thread);

        List<GraphEvent> events = run(graph, b.on(thread).input(user("second").set(TARGET, "nowhere")));

        failed(events, "unknown_target");
        List<String> after = historyIds(graph, thread);
        assertThat(after).hasSize(before.size() + 1).endsWith(before.toArray(String[]::new));
        StateSnapshot head = state(graph, thread);
        assertThat(head.source()).isEqualTo(CheckpointSource.INPUT);
        assertThat(head.next()).containsExactly("a");
        assertThat(ids(head.values().get(MSGS))).doesNotContain("a@" + (head.step() + 1));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRouterFromStartNamingAnUnknownNodeStoresNothing(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", says("a"))
                .route(START, s -> Route.to("ghost"))
                .edge("a", END)
                .compile(b.options());
        String thread = newThread();

        failed(run(graph, b.on(thread).input(user("go"))), "unknown_target");

        assertThat(Runs.await(graph.state(thread))).isEmpty();
        assertThat(historyIds(graph, thread)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aNodeCanSendTheRunToAnotherNodeWithGoTo(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> done(Update.of(MSGS, Msg.ai("a", "a")).goTo(s.get(TARGET))))
                .node("b", says("b"))
                .node("c", says("c"))
                .edge(START, "a").edge("a", END).edge("b", END).edge("c", END)
                .compile(b.options());

        List<GraphEvent> toC = run(graph, b.on(newThread()).input(user("go").set(TARGET, "c")));
        List<GraphEvent> toB = run(graph, b.on(newThread()).input(user("go").set(TARGET, "b")));
        List<GraphEvent> toNowhere = run(graph, b.on(newThread()).input(user("go").set(TARGET, "ghost")));

        assertThat(startedNodes(toC)).containsExactly("a", "c");
        assertThat(ids(finished(toC).state().get(MSGS))).containsExactly("u-go", "a", "c@1");
        assertThat(startedNodes(toB)).containsExactly("a", "b");
        failed(toNowhere, "unknown_target");
    }
}
