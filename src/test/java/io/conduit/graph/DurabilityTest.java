package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What a run has stored when it says it ended, in either durability mode; writes to channels the state lacks. */
class DurabilityTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");
    private static final StateSchema SCHEMA = StateSchema.of(MSGS, COUNT);

    /** A loop of ten steps, each adding a message. */
    private static CompiledGraph tenSteps(Backends.Backend b) {
        return StateGraph.of(SCHEMA)
                .node("step", (s, ctx) -> {
                    int n = s.get(COUNT) + 1;
                    return done(Update.of(COUNT, n).set(MSGS, Msg.ai("m" + n, "step " + n)));
                })
                .edge(START, "step")
                .route("step", s -> Route.to(s.get(COUNT) < 10 ? "step" : END), "step", END)
                .compile(b.options());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void everyCheckpointIsReadableOnceTheRunSaysItFinished(Backends.Backend b) {
        CompiledGraph graph = tenSteps(b);
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go"))));

        GraphEvent.RunFinished end = finished(events);
        List<StateSnapshot> history = history(graph, thread);
        assertThat(history).hasSize(11);
        assertThat(history.get(0).checkpointId()).isEqualTo(end.checkpointId());
        assertThat(state(graph, thread).values().get(COUNT)).isEqualTo(10);
        assertThat(history).extracting(StateSnapshot::checkpointId).containsAll(
                ofType(events, GraphEvent.Values.class).stream().map(GraphEvent.Values::checkpointId).toList());
        for (GraphEvent.Values v : ofType(events, GraphEvent.Values.class)) {
            StateSnapshot at = Runs.await(graph.state(thread, v.checkpointId())).orElseThrow();
            assertThat(at.values().get(COUNT)).isEqualTo(v.state().get(COUNT));
            assertThat(at.values().get(MSGS)).isEqualTo(v.state().get(MSGS));
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInterruptIsReadableOnceTheRunSaysItPaused(Backends.Backend b) {
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> done(Update.of(COUNT, 1)))
                .node("ask", (s, ctx) -> done(Update.of(MSGS, Msg.ai("x", ctx.interrupt("?", String.class)))))
                .edge(START, "a").edge("a", "ask").edge("ask", END)
                .compile(b.options());
        String thread = newThread();

        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go")))));

        StateSnapshot s = state(graph, thread);
        assertThat(s.checkpointId()).isEqualTo(stop.checkpointId());
        assertThat(s.values().get(COUNT)).isEqualTo(1);
        assertThat(s.interrupts()).extracting(Interrupt::id).containsExactly(stop.interrupts().get(0).id());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aNodeWritingToAnUnknownChannelFails(Backends.Backend b) {
        LastValueChannel<String> stranger = TestMessages.text("stranger");
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> done(Update.of(stranger, "boo")))
                .edge(START, "a").edge("a", END)
                .compile(b.options());
        String thread = newThread();

        GraphEvent.RunFailed f = failed(run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "go")))), "unknown_channel");

        assertThat(f.message()).contains("stranger");
        StateSnapshot s = state(graph, thread);
        assertThat(s.next()).containsExactly("a");
        assertThat(ids(s.values().get(MSGS))).containsExactly("u");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInputWritingToAnUnknownChannelFailsAndStoresNothing(Backends.Backend b) {
        CompiledGraph graph = tenSteps(b);
        String thread = newThread();

        failed(run(graph, b.on(thread).input(Update.of(TestMessages.text("stranger"), "boo"))), "unknown_channel");

        assertThat(Runs.await(graph.state(thread))).isEmpty();
    }
}
