package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A linear graph START → a → b → END: the event stream, the state, and turns that follow each other. */
class RunLoopTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema SCHEMA = StateSchema.of(MSGS);

    /** Each node adds a message whose id names the node and the step. */
    private static Node says(String name) {
        return (s, ctx) -> done(Update.of(MSGS, Msg.ai(name + "@" + ctx.step(), name)));
    }

    private static CompiledGraph linear(Backends.Backend b) {
        return StateGraph.of(SCHEMA)
                .node("a", says("a"))
                .node("b", says("b"))
                .edge(StateGraph.START, "a").edge("a", "b").edge("b", StateGraph.END)
                .compile(b.options());
    }

    private static Update user(String id) {
        return Update.of(MSGS, Msg.user(id, "hello " + id));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void eventsComeInRunOrder(Backends.Backend b) {
        List<GraphEvent> events = run(linear(b), b.on(newThread()).input(user("u1")));

        assertThat(events).extracting(e -> e.getClass().getSimpleName()).containsExactly(
                "RunStarted",
                "TaskStarted", "TaskFinished", "Values",
                "TaskStarted", "TaskFinished", "Values",
                "RunFinished");
        assertThat(events).extracting(e -> e.tag().node())
                .containsExactly(null, "a", "a", null, "b", "b", null, null);
        assertThat(events).extracting(e -> e.tag().step())
                .containsExactly(-1, 0, 0, 0, 1, 1, 1, 1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void eventsCarryRunThreadNodeAndStep(Backends.Backend b) {
        String thread = newThread();
        String runId = UUID.randomUUID().toString();
        List<GraphEvent> events = run(linear(b), b.on(thread).runId(runId).input(user("u1")));

        assertThat(events).allSatisfy(e -> {
            assertThat(e.tag().runId()).isEqualTo(runId);
            assertThat(e.tag().threadId()).isEqualTo(thread);
            assertThat(e.tag().ns()).isEmpty();
        });
        List<GraphEvent.TaskStarted> started = ofType(events, GraphEvent.TaskStarted.class);
        List<GraphEvent.TaskFinished> taskFinished = ofType(events, GraphEvent.TaskFinished.class);
        assertThat(started).extracting(GraphEvent.TaskStarted::taskId)
                .doesNotHaveDuplicates()
                .containsExactlyElementsOf(taskFinished.stream().map(GraphEvent.TaskFinished::taskId).toList());
        assertThat(taskFinished.get(0).update().writes()).extracting(Update.Write::value)
                .containsExactly(Msg.ai("a@0", "a"));

        List<GraphEvent.Values> values = ofType(events, GraphEvent.Values.class);
        assertThat(ids(values.get(0).state().get(MSGS))).containsExactly("u1", "a@0");
        assertThat(ids(values.get(1).state().get(MSGS))).containsExactly("u1", "a@0", "b@1");
        GraphEvent.RunStarted runStarted = (GraphEvent.RunStarted) events.get(0);
        GraphEvent.RunFinished end = finished(events);
        assertThat(List.of(runStarted.checkpointId(), values.get(0).checkpointId(), values.get(1).checkpointId()))
                .doesNotHaveDuplicates();
        assertThat(end.checkpointId()).isEqualTo(values.get(1).checkpointId());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRunIdThatIsNotAUuidIsRejected(Backends.Backend b) {
        CompiledGraph graph = linear(b);
        String thread = newThread();

        failed(run(graph, b.on(thread).runId("run-1").input(user("u1"))), "invalid_request");

        assertThat(Runs.await(graph.state(thread))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void theStateAfterTheRunIsStored(Backends.Backend b) {
        CompiledGraph graph = linear(b);
        String thread = newThread();
        GraphEvent.RunFinished end = finished(run(graph, b.on(thread).input(user("u1"))));

        StateSnapshot s = state(graph, thread);
        assertThat(ids(s.values().get(MSGS))).containsExactly("u1", "a@0", "b@1");
        assertThat(s.values().get(MSGS)).isEqualTo(end.state().get(MSGS));
        assertThat(s.checkpointId()).isEqualTo(end.checkpointId());
        assertThat(s.next()).isEmpty();
        assertThat(s.interrupts()).isEmpty();
        assertThat(s.step()).isEqualTo(1);
        assertThat(s.threadId()).isEqualTo(thread);
        assertThat(history(graph, thread)).extracting(StateSnapshot::source)
                .containsExactly(CheckpointSource.LOOP, CheckpointSource.LOOP, CheckpointSource.INPUT);
        assertThat(Runs.await(graph.state(newThread()))).as("an unknown thread has no state").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSecondTurnContinuesFromTheFirst(Backends.Backend b) {
        CompiledGraph graph = linear(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u1")));
        assertThat(history(graph, thread)).hasSize(3);

        List<GraphEvent> second = run(graph, b.on(thread).input(user("u2")));

        assertThat(ids(finished(second).state().get(MSGS))).containsExactly("u1", "a@0", "b@1", "u2", "a@3", "b@4");
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u1", "a@0", "b@1", "u2", "a@3", "b@4");
        List<StateSnapshot> history = history(graph, thread);
        assertThat(history).hasSize(6);
        assertThat(history).extracting(StateSnapshot::step).containsExactly(4, 3, 2, 1, 0, -1);
        assertThat(ids(history.get(3).values().get(MSGS))).as("the first turn's end is kept").containsExactly("u1", "a@0", "b@1");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void invokeReturnsFinishedWithTheState(Backends.Backend b) {
        CompiledGraph graph = linear(b);
        String thread = newThread();
        RunResult r = Runs.await(graph.invoke(b.on(thread).input(user("u1"))));

        assertThat(r.status()).isEqualTo(RunResult.Status.FINISHED);
        assertThat(ids(r.state().get(MSGS))).containsExactly("u1", "a@0", "b@1");
        assertThat(r.checkpointId()).isEqualTo(state(graph, thread).checkpointId());
        assertThat(r.interrupts()).isEmpty();
        assertThat(r.errorCode()).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void tokensAndCustomEventsAreStreamedFromTheirNode(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("talk", (s, ctx) -> {
                    ctx.token("reply", "Hel");
                    ctx.token("reply", "lo");
                    ctx.custom("progress", 50);
                    return done(Update.of(MSGS, Msg.ai("reply", "Hello")));
                })
                .edge(StateGraph.START, "talk").edge("talk", StateGraph.END)
                .compile(b.options());
        List<GraphEvent> events = run(graph, b.on(newThread()).input(user("u1")));

        List<GraphEvent.Token> tokens = ofType(events, GraphEvent.Token.class);
        assertThat(tokens.stream().map(GraphEvent.Token::text).collect(Collectors.joining())).isEqualTo("Hello");
        assertThat(tokens).allSatisfy(t -> {
            assertThat(t.messageId()).isEqualTo("reply");
            assertThat(t.tag().node()).isEqualTo("talk");
            assertThat(t.tag().step()).isZero();
        });
        assertThat(ofType(events, GraphEvent.Custom.class)).singleElement()
                .satisfies(c -> assertThat(c.payload()).isEqualTo(50));
        int started = events.indexOf(ofType(events, GraphEvent.TaskStarted.class).get(0));
        int taskFinished = events.indexOf(ofType(events, GraphEvent.TaskFinished.class).get(0));
        assertThat(events.indexOf(tokens.get(0))).isBetween(started, taskFinished);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aFailingNodeEndsTheRunAndKeepsTheCheckpointBeforeIt(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", says("a"))
                .node("b", (s, ctx) -> Uni.createFrom().failure(new IllegalStateException("model unavailable")))
                .edge(StateGraph.START, "a").edge("a", "b").edge("b", StateGraph.END)
                .compile(b.options());
        String thread = newThread();
        List<GraphEvent> events = run(graph, b.on(thread).input(user("u1")));

        GraphEvent.RunFailed f = failed(events, "node_failed");
        assertThat(f.message()).contains("b").contains("model unavailable");
        StateSnapshot s = state(graph, thread);
        assertThat(ids(s.values().get(MSGS))).containsExactly("u1", "a@0");
        assertThat(s.next()).containsExactly("b");
    }
}
