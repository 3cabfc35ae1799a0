package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.startedNodes;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.Runs.taskFinished;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static io.conduit.graph.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Several tasks in one superstep: static fan-out, routers after parallel branches, and dynamic fan-out (Send). */
class ParallelTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<String> LAST = TestMessages.text("last");
    private static final LastValueChannel<String> FLAG = TestMessages.text("flag");
    private static final StateSchema SCHEMA = StateSchema.of(MSGS, LAST, FLAG);

    private static Update wrote(String node) {
        return Update.of(MSGS, Msg.ai(node, node)).set(LAST, node);
    }

    private static Update user(String text) {
        return Update.of(MSGS, Msg.user("u", text));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aFanOutRunsInOneStepAndAppliesWritesInTaskOrder(Backends.Backend b) {
        CompletableFuture<Void> releaseA = new CompletableFuture<>();
        CompletableFuture<Map<String, Integer>> joinSaw = new CompletableFuture<>();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> Uni.createFrom().completionStage(releaseA).map(v -> wrote("a")))
                .node("b", (s, ctx) -> done(wrote("b")))
                .node("c", (s, ctx) -> done(wrote("c")))
                .node("join", (s, ctx) -> {
                    joinSaw.complete(Map.of("messages", s.get(MSGS).size()));
                    return done(Update.none());
                })
                .edge(START, "a").edge(START, "b").edge(START, "c")
                .edge("a", "join").edge("b", "join").edge("c", "join").edge("join", END)
                .compile(b.options());
        String thread = newThread();

        Runs.Recorder rec = Runs.Recorder.start(graph.stream(b.on(thread).input(user("go"))));
        rec.awaitFirst(taskFinished("b"));
        rec.awaitFirst(taskFinished("c"));
        assertThat(rec.events()).noneMatch(taskFinished("a"));
        releaseA.complete(null);
        GraphEvent end = rec.awaitEnd();

        List<GraphEvent> events = rec.events();
        assertThat(end).isInstanceOf(GraphEvent.RunFinished.class);
        List<GraphEvent.TaskStarted> started = ofType(events, GraphEvent.TaskStarted.class);
        assertThat(started).extracting(e -> e.tag().node()).containsExactly("a", "b", "c", "join");
        assertThat(started).extracting(e -> e.tag().step()).containsExactly(0, 0, 0, 1);
        assertThat(ofType(events, GraphEvent.TaskFinished.class)).extracting(e -> e.tag().node())
                .as("a finished last").endsWith("a", "join");
        assertThat(ofType(events, GraphEvent.Values.class)).hasSize(2);

        State finalState = ((GraphEvent.RunFinished) end).state();
        assertThat(ids(finalState.get(MSGS))).containsExactly("u", "a", "b", "c");
        assertThat(finalState.get(LAST)).as("the last task in task order wins, not the last to finish").isEqualTo("c");
        assertThat(Runs.Recorder.get(joinSaw)).containsEntry("messages", 4);
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u", "a", "b", "c");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void routersAfterParallelBranchesSeeTheWholeStepsWrites(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> done(wrote("a").set(FLAG, "from-a")))
                .node("b", (s, ctx) -> done(wrote("b")))
                .node("c", (s, ctx) -> done(wrote("c")))
                .node("d", (s, ctx) -> done(wrote("d")))
                .edge(START, "a").edge(START, "b")
                .route("a", s -> Route.to("c"), "c", END)
                // b's router reads what its sibling a wrote in the same step
                .route("b", s -> Route.to(s.get(FLAG).equals("from-a") ? "d" : END), "d", END)
                .edge("c", END).edge("d", END)
                .compile(b.options());

        List<GraphEvent> events = run(graph, b.on(newThread()).input(user("go")));

        List<GraphEvent.TaskStarted> started = ofType(events, GraphEvent.TaskStarted.class);
        assertThat(started.stream().collect(Collectors.toMap(e -> e.tag().node(), e -> e.tag().step())))
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", 0, "b", 0, "c", 1, "d", 1));
        assertThat(ids(finished(events).state().get(MSGS))).containsExactly("u", "a", "b", "c", "d");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRouterFansOutWithSendAndEveryResultIsJoinedBeforeTheNextStep(Backends.Backend b) {
        CompletableFuture<List<String>> joinSaw = new CompletableFuture<>();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("plan", (s, ctx) -> done(Update.none()))
                .node("worker", (s, ctx) -> {
                    int n = ctx.input(Integer.class);
                    return done(Update.of(MSGS, Msg.ai("result-" + n, String.valueOf(n * 10))));
                })
                .node("join", (s, ctx) -> {
                    joinSaw.complete(ids(s.get(MSGS)));
                    return done(Update.of(MSGS, Msg.ai("joined", "done")));
                })
                .edge(START, "plan")
                .route("plan", s -> Route.send(List.of(new Send("worker", 1), new Send("worker", 2), new Send("worker", 3))),
                        "worker")
                .edge("worker", "join").edge("join", END)
                .compile(b.options());
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(user("go")));

        List<GraphEvent.TaskStarted> started = ofType(events, GraphEvent.TaskStarted.class);
        assertThat(started).extracting(e -> e.tag().node()).containsExactly("plan", "worker", "worker", "worker", "join");
        assertThat(started).extracting(e -> e.tag().step()).containsExactly(0, 1, 1, 1, 2);
        assertThat(Runs.Recorder.get(joinSaw)).containsExactly("u", "result-1", "result-2", "result-3");
        MessageList<Item> result = finished(events).state().get(MSGS);
        assertThat(ids(result)).containsExactly("u", "result-1", "result-2", "result-3", "joined");
        assertThat(texts(result)).containsSubsequence("10", "20", "30");
        assertThat(startedNodes(events)).filteredOn("join"::equals).hasSize(1);
        assertThat(state(graph, thread).values().get(MSGS)).isEqualTo(result);
    }
}
