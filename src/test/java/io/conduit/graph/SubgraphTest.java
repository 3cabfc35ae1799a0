package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
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
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A compiled graph as a node of another: its events, its state and its interrupts reach the parent. */
class SubgraphTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema SCHEMA = StateSchema.of(MSGS);

    private static Node says(String id) {
        return (s, ctx) -> done(Update.of(MSGS, Msg.ai(id + "-" + s.get(MSGS).size(), id)));
    }

    private static Update user(String id) {
        return Update.of(MSGS, Msg.user(id, id));
    }

    /** START → s1 → s2 → END, compiled with defaults: it borrows the parent's store when it runs. */
    private static CompiledGraph sub() {
        return StateGraph.of(SCHEMA)
                .node("s1", says("s1"))
                .node("s2", says("s2"))
                .edge(START, "s1").edge("s1", "s2").edge("s2", END)
                .compile();
    }

    private static CompiledGraph parent(Backends.Backend b, CompiledGraph sub) {
        return StateGraph.of(SCHEMA)
                .node("before", says("before"))
                .node("sub", sub)
                .node("after", says("after"))
                .edge(START, "before").edge("before", "sub").edge("sub", "after").edge("after", END)
                .compile(b.options());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSubgraphsEventsReachTheParentStreamInTheirOwnNamespace(Backends.Backend b) {
        String thread = newThread();
        List<GraphEvent> events = run(parent(b, sub()), b.on(thread).input(user("u")));

        finished(events);
        GraphEvent.TaskStarted subTask = ofType(events, GraphEvent.TaskStarted.class).stream()
                .filter(e -> "sub".equals(e.tag().node()) && e.tag().ns().isEmpty()).findFirst().orElseThrow();
        String ns = "sub:" + subTask.taskId();

        List<GraphEvent> inner = events.stream().filter(e -> !e.tag().ns().isEmpty()).toList();
        assertThat(inner).isNotEmpty().allSatisfy(e -> assertThat(e.tag().ns()).isEqualTo(ns));
        assertThat(ofType(inner, GraphEvent.TaskStarted.class)).extracting(e -> e.tag().node()).containsExactly("s1", "s2");
        assertThat(inner).noneMatch(GraphEvent::terminal);
        assertThat(inner).allSatisfy(e -> {
            assertThat(e.tag().threadId()).isEqualTo(thread);
            assertThat(e.tag().runId()).isEqualTo(subTask.tag().runId());
        });
        List<GraphEvent> outer = events.stream().filter(e -> e.tag().ns().isEmpty()).toList();
        assertThat(ofType(outer, GraphEvent.TaskStarted.class)).extracting(e -> e.tag().node())
                .containsExactly("before", "sub", "after");
        // the inner run happens while the parent's sub task is running
        int subStarted = events.indexOf(subTask);
        int subFinished = events.indexOf(ofType(outer, GraphEvent.TaskFinished.class).stream()
                .filter(e -> "sub".equals(e.tag().node())).findFirst().orElseThrow());
        assertThat(events.indexOf(inner.get(0))).isBetween(subStarted, subFinished);
        assertThat(events.indexOf(inner.get(inner.size() - 1))).isBetween(subStarted, subFinished);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void messagesASubgraphAddsAppearInTheParentState(Backends.Backend b) {
        CompiledGraph graph = parent(b, sub());
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(user("u1")));

        List<String> expected = List.of("u1", "before-1", "s1-2", "s2-3", "after-4");
        assertThat(ids(finished(events).state().get(MSGS))).containsExactlyElementsOf(expected);
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactlyElementsOf(expected);

        // a second turn: the subgraph starts from the parent's messages and hands back only what it added
        run(graph, b.on(thread).input(user("u2")));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly(
                "u1", "before-1", "s1-2", "s2-3", "after-4", "u2", "before-6", "s1-7", "s2-8", "after-9");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInterruptInsideASubgraphPausesTheParentAndResumesFromIt(Backends.Backend b) {
        AtomicInteger askRuns = new AtomicInteger();
        CompiledGraph sub = StateGraph.of(SCHEMA)
                .node("ask", (s, ctx) -> {
                    askRuns.incrementAndGet();
                    String answer = ctx.interrupt("approve?", String.class);
                    return done(Update.of(MSGS, Msg.ai("answer", answer)));
                })
                .edge(START, "ask").edge("ask", END)
                .compile();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("sub", sub)
                .node("after", says("after"))
                .edge(START, "sub").edge("sub", "after").edge("after", END)
                .compile(b.options());
        String thread = newThread();

        List<GraphEvent> first = run(graph, b.on(thread).input(user("u")));

        GraphEvent.Interrupted stop = interrupted(first);
        assertThat(stop.tag().ns()).isEmpty();
        assertThat(stop.interrupts()).extracting(Interrupt::value).containsExactly("approve?");
        StateSnapshot paused = state(graph, thread);
        assertThat(paused.next()).containsExactly("sub");
        assertThat(paused.interrupts()).extracting(Interrupt::value).containsExactly("approve?");

        List<GraphEvent> resumed = run(graph, b.on(thread).command(Command.resume("approved")));

        MessageList<Item> result = finished(resumed).state().get(MSGS);
        assertThat(ids(result)).containsExactly("u", "answer", "after-2");
        assertThat(((Msg) result.byId("answer")).text()).isEqualTo("approved");
        assertThat(askRuns).hasValue(2);
        assertThat(ofType(resumed, GraphEvent.TaskStarted.class)).filteredOn(e -> "ask".equals(e.tag().node()))
                .singleElement().satisfies(e -> assertThat(e.tag().ns()).startsWith("sub:"));
        assertThat(state(graph, thread).interrupts()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSubgraphThatAsksInALoopPausesTheParentAtEachQuestionAndGetsEachAnswerOnce(Backends.Backend b) {
        // ask -> check -> ask ... three times: each question is a new task of the subgraph, all inside one parent task
        AtomicInteger checks = new AtomicInteger();
        CompiledGraph sub = StateGraph.of(SCHEMA)
                .node("ask", (s, ctx) -> {
                    int n = s.get(MSGS).size();
                    String answer = ctx.interrupt("question " + n, String.class);
                    return done(Update.of(MSGS, Msg.user("a" + n, answer)));
                })
                .node("check", (s, ctx) -> {
                    checks.incrementAndGet();
                    return done(Update.none());
                })
                .edge(START, "ask").edge("ask", "check")
                .route("check", s -> Route.to(s.get(MSGS).size() < 4 ? "ask" : END), "ask", END)
                .compile();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("quiz", sub)
                .node("after", says("after"))
                .edge(START, "quiz").edge("quiz", "after").edge("after", END)
                .compile(b.options());
        String thread = newThread();

        GraphEvent.Interrupted first = interrupted(run(graph, b.on(thread).input(user("u"))));
        assertThat(first.interrupts()).extracting(Interrupt::value).containsExactly("question 1");
        GraphEvent.Interrupted second = interrupted(run(graph, b.on(thread).command(Command.resume("one"))));
        assertThat(second.interrupts()).extracting(Interrupt::value).containsExactly("question 2");
        assertThat(state(graph, thread).interrupts()).extracting(Interrupt::value).containsExactly("question 2");
        GraphEvent.Interrupted third = interrupted(run(graph, b.on(thread).command(Command.resume("two"))));
        assertThat(third.interrupts()).extracting(Interrupt::value).containsExactly("question 3");

        List<GraphEvent> last = run(graph, b.on(thread).command(Command.resume("three")));

        MessageList<Item> result = finished(last).state().get(MSGS);
        assertThat(ids(result)).containsExactly("u", "a1", "a2", "a3", "after-4");
        assertThat(result.asList()).extracting(m -> ((Msg) m).text()).containsSubsequence("one", "two", "three");
        assertThat(checks).as("each answer checked once, however often the parent's task ran").hasValue(3);
        assertThat(state(graph, thread).interrupts()).isEmpty();
    }
}
