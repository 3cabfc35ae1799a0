package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.historyIds;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.startedNodes;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static io.conduit.graph.TestMessages.texts;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Human in the loop: interrupts inside nodes, resuming them, and static breakpoints. */
class InterruptTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema SCHEMA = StateSchema.of(MSGS);
    private static final Map<String, String> QUESTION = Map.of("question", "ok?");

    private final AtomicInteger askRuns = new AtomicInteger();

    private static Update user(String text) {
        return Update.of(MSGS, Msg.user("u", text));
    }

    /** Asks once, then writes the answer and whether it saw a message with id "note". */
    private final Node ask = (s, ctx) -> {
        askRuns.incrementAndGet();
        String answer = ctx.interrupt(QUESTION, String.class);
        boolean sawNote = s.get(MSGS).byId("note") != null;
        return done(Update.of(MSGS, Msg.ai("answer", answer + (sawNote ? " (saw note)" : ""))));
    };

    /** Asks twice in one node. */
    private final Node askTwice = (s, ctx) -> {
        askRuns.incrementAndGet();
        String first = ctx.interrupt("first?", String.class);
        String second = ctx.interrupt("second?", String.class);
        return done(Update.of(MSGS, Msg.ai("answers", first + "+" + second)));
    };

    private static CompiledGraph single(Backends.Backend b, Node node) {
        return StateGraph.of(SCHEMA)
                .node("ask", node)
                .edge(START, "ask").edge("ask", END)
                .compile(b.options());
    }

    private static String answer(MessageList<Item> list, String id) {
        return ((Msg) list.byId(id)).text();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInterruptEndsTheRunWithItsPayload(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();

        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(user("hi"))));

        assertThat(stop.interrupts()).singleElement().satisfies(i -> {
            assertThat(i.value()).isEqualTo(QUESTION);
            assertThat(i.node()).isEqualTo("ask");
            assertThat(i.when()).isEqualTo(Interrupt.When.DURING);
            assertThat(i.id()).isNotBlank();
        });
        StateSnapshot s = state(graph, thread);
        assertThat(s.checkpointId()).isEqualTo(stop.checkpointId());
        assertThat(s.next()).containsExactly("ask");
        assertThat(s.interrupts()).singleElement().satisfies(i -> {
            assertThat(i.id()).isEqualTo(stop.interrupts().get(0).id());
            assertThat(i.value()).isEqualTo(QUESTION);
        });
        assertThat(s.values().get(MSGS).byId("answer")).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void resumingReEntersTheNodeAndTheInterruptReturnsTheValue(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("hi"))));

        List<GraphEvent> resumed = run(graph, b.on(thread).command(Command.resume("yes")));

        assertThat(answer(finished(resumed).state().get(MSGS), "answer")).isEqualTo("yes");
        assertThat(askRuns).hasValue(2);
        assertThat(startedNodes(resumed)).containsExactly("ask");
        StateSnapshot s = state(graph, thread);
        assertThat(s.interrupts()).isEmpty();
        assertThat(s.next()).isEmpty();
        assertThat(answer(s.values().get(MSGS), "answer")).isEqualTo("yes");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void twoInterruptsInOneNodeAreResumedOneAfterTheOther(Backends.Backend b) {
        CompiledGraph graph = single(b, askTwice);
        String thread = newThread();

        GraphEvent.Interrupted first = interrupted(run(graph, b.on(thread).input(user("hi"))));
        GraphEvent.Interrupted second = interrupted(run(graph, b.on(thread).command(Command.resume("one"))));
        assertThat(state(graph, thread).interrupts()).extracting(Interrupt::value).containsExactly("second?");
        List<GraphEvent> end = run(graph, b.on(thread).command(Command.resume("two")));

        assertThat(first.interrupts()).extracting(Interrupt::value).containsExactly("first?");
        assertThat(second.interrupts()).extracting(Interrupt::value).containsExactly("second?");
        assertThat(second.interrupts().get(0).id()).isNotEqualTo(first.interrupts().get(0).id());
        assertThat(answer(finished(end).state().get(MSGS), "answers")).isEqualTo("one+two");
        assertThat(askRuns).hasValue(3);
    }

    /** As LangGraph's loop does on resume: a values stream (and runs/wait) has the state even if no step ends. */
    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aResumedRunFirstTellsTheStateItStartsFromAndANewInputDoesNot(Backends.Backend b) {
        CompiledGraph graph = single(b, askTwice);
        String thread = newThread();
        List<GraphEvent> first = run(graph, b.on(thread).input(user("hi")));
        assertThat(first.get(1)).isNotInstanceOf(GraphEvent.Values.class);

        List<GraphEvent> second = run(graph, b.on(thread).command(Command.resume("one")));
        assertThat(second.get(0)).isInstanceOf(GraphEvent.RunStarted.class);
        GraphEvent.Values start = (GraphEvent.Values) second.get(1);
        assertThat(ids(start.state().get(MSGS))).containsExactly("u");
        assertThat(start.checkpointId()).isEqualTo(((GraphEvent.RunStarted) second.get(0)).checkpointId());
        assertThat(start.start()).as("told as the start, not a step's end").isTrue();
        assertThat(Runs.ofType(first, GraphEvent.Values.class)).noneMatch(GraphEvent.Values::start);
        // it paused again within the same step: the state it started from is the only one it told
        assertThat(Runs.ofType(second, GraphEvent.Values.class)).containsExactly(start);
        interrupted(second);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void resumingWhenNothingIsPendingFailsAndWritesNothing(Backends.Backend b) {
        CompiledGraph graph = single(b, (s, ctx) -> done(Update.of(MSGS, Msg.ai("plain", "no question"))));
        String thread = newThread();
        finished(run(graph, b.on(thread).input(user("hi"))));
        List<String> before = historyIds(graph, thread);

        failed(run(graph, b.on(thread).command(Command.resume("yes"))), "no_pending_interrupt");

        assertThat(historyIds(graph, thread)).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void theStateARunLeftIsItsOnlyWhileItsCheckpointIsTheNewest(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();
        String asking = UUID.randomUUID().toString();
        String answering = UUID.randomUUID().toString();

        interrupted(run(graph, b.on(thread).runId(asking).input(user("hi"))));

        assertThat(Runs.await(graph.stateLeftBy(thread, asking))).get().satisfies(s -> assertThat(s.waitsForAnswer()).isTrue());
        assertThat(Runs.await(graph.stateLeftBy(thread, answering))).isEmpty();
        assertThat(Runs.await(graph.stateLeftBy(newThread(), asking))).as("a thread with no checkpoint").isEmpty();

        finished(run(graph, b.on(thread).runId(answering).command(Command.resume("yes"))));

        assertThat(Runs.await(graph.stateLeftBy(thread, asking))).as("another run wrote since").isEmpty();
        assertThat(Runs.await(graph.stateLeftBy(thread, answering))).get().satisfies(s -> assertThat(s.waitsForAnswer()).isFalse());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void resumingAnUnknownThreadFails(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();

        failed(run(graph, b.on(thread).command(Command.resume("yes"))), "unknown_thread");
        failed(run(graph, b.on(thread)), "unknown_thread");

        assertThat(Runs.await(graph.state(thread))).isEmpty();
        assertThat(askRuns).hasValue(0);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void continuingWithoutAnAnswerWhileAnInterruptIsPendingFails(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("hi"))));
        List<String> before = historyIds(graph, thread);

        failed(run(graph, b.on(thread)), "resume_required");

        assertThat(historyIds(graph, thread)).isEqualTo(before);
        assertThat(state(graph, thread).interrupts()).hasSize(1);
        assertThat(askRuns).hasValue(1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInterruptCanBeAnsweredById(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();
        String id = interrupted(run(graph, b.on(thread).input(user("hi")))).interrupts().get(0).id();

        failed(run(graph, b.on(thread).command(Command.resumeById(Map.of("no-such-id", "x")))), "no_pending_interrupt");
        List<GraphEvent> end = run(graph, b.on(thread).command(Command.resumeById(Map.of(id, "by id"))));

        assertThat(answer(finished(end).state().get(MSGS), "answer")).isEqualTo("by id");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void parallelInterruptsAreAnsweredEachByItsId(Backends.Backend b) {
        AtomicInteger xRuns = new AtomicInteger();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("x", (s, ctx) -> {
                    xRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("x", ctx.interrupt("x?", String.class))));
                })
                .node("y", (s, ctx) -> done(Update.of(MSGS, Msg.ai("y", ctx.interrupt("y?", String.class)))))
                .edge(START, "x").edge(START, "y").edge("x", END).edge("y", END)
                .compile(b.options());
        String thread = newThread();

        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(user("hi"))));
        assertThat(stop.interrupts()).extracting(Interrupt::value).containsExactlyInAnyOrder("x?", "y?");
        assertThat(state(graph, thread).interrupts()).hasSize(2);
        String xId = stop.interrupts().stream().filter(i -> i.node().equals("x")).findFirst().orElseThrow().id();
        String yId = stop.interrupts().stream().filter(i -> i.node().equals("y")).findFirst().orElseThrow().id();

        // answer x only: y asks again, x's answer is kept
        GraphEvent.Interrupted still = interrupted(run(graph, b.on(thread).command(Command.resumeById(Map.of(xId, "for x")))));
        assertThat(still.interrupts()).extracting(Interrupt::id).containsExactly(yId);
        assertThat(xRuns).hasValue(2);

        List<GraphEvent> end = run(graph, b.on(thread).command(Command.resumeById(Map.of(yId, "for y"))));
        MessageList<Item> result = finished(end).state().get(MSGS);
        assertThat(answer(result, "x")).isEqualTo("for x");
        assertThat(answer(result, "y")).isEqualTo("for y");
        assertThat(xRuns).as("x finished before y was answered, so it is not run again").hasValue(2);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aResumeWithAnUpdateAppliesItBeforeTheNodeRunsAgain(Backends.Backend b) {
        CompiledGraph graph = single(b, ask);
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("hi"))));

        List<GraphEvent> end = run(graph, b.on(thread)
                .command(Command.resume("yes").withUpdate(Update.of(MSGS, Msg.ai("note", "from the reviewer")))));

        MessageList<Item> result = finished(end).state().get(MSGS);
        assertThat(ids(result)).containsExactly("u", "note", "answer");
        assertThat(answer(result, "answer")).isEqualTo("yes (saw note)");
        assertThat(history(graph, thread)).extracting(StateSnapshot::source).contains(CheckpointSource.UPDATE);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSecondInterruptAfterAResumeWithAnUpdateIsStillPending(Backends.Backend b) {
        CompiledGraph graph = single(b, askTwice);
        String thread = newThread();
        interrupted(run(graph, b.on(thread).input(user("hi"))));

        GraphEvent.Interrupted second = interrupted(run(graph, b.on(thread)
                .command(Command.resume("one").withUpdate(Update.of(MSGS, Msg.ai("note", "n"))))));
        assertThat(second.interrupts()).extracting(Interrupt::value).containsExactly("second?");
        assertThat(state(graph, thread).interrupts()).extracting(Interrupt::value).containsExactly("second?");

        List<GraphEvent> end = run(graph, b.on(thread).command(Command.resume("two")));
        assertThat(answer(finished(end).state().get(MSGS), "answers")).isEqualTo("one+two");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aSiblingThatFinishedIsNotRunAgainOnResume(Backends.Backend b) {
        AtomicInteger aRuns = new AtomicInteger();
        AtomicInteger bRuns = new AtomicInteger();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> {
                    aRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("a", "a")));
                })
                .node("b", (s, ctx) -> {
                    bRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("b", ctx.interrupt("b?", String.class))));
                })
                .edge(START, "a").edge(START, "b").edge("a", END).edge("b", END)
                .compile(b.options());
        String thread = newThread();

        interrupted(run(graph, b.on(thread).input(user("hi"))));
        assertThat(state(graph, thread).next()).containsExactly("a", "b");
        List<GraphEvent> end = run(graph, b.on(thread).command(Command.resume("ok")));

        assertThat(aRuns).hasValue(1);
        assertThat(bRuns).hasValue(2);
        assertThat(startedNodes(end)).containsExactly("b");
        MessageList<Item> result = finished(end).state().get(MSGS);
        assertThat(ids(result)).containsExactly("u", "a", "b");
        assertThat(texts(result)).containsExactly("hi", "a", "ok");
    }

    private static CompiledGraph aThenB(GraphOptions options, AtomicInteger aRuns, AtomicInteger bRuns) {
        return StateGraph.of(SCHEMA)
                .node("a", (s, ctx) -> {
                    aRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("a", "a")));
                })
                .node("b", (s, ctx) -> {
                    bRuns.incrementAndGet();
                    return done(Update.of(MSGS, Msg.ai("b", "b")));
                })
                .edge(START, "a").edge("a", "b").edge("b", END)
                .compile(options);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void interruptBeforeStopsBeforeTheNodeAndAPlainContinueRunsIt(Backends.Backend b) {
        AtomicInteger aRuns = new AtomicInteger();
        AtomicInteger bRuns = new AtomicInteger();
        CompiledGraph graph = aThenB(b.options().interruptBefore("b"), aRuns, bRuns);
        String thread = newThread();

        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(user("hi"))));

        assertThat(stop.interrupts()).singleElement().satisfies(i -> {
            assertThat(i.when()).isEqualTo(Interrupt.When.BEFORE);
            assertThat(i.node()).isEqualTo("b");
        });
        assertThat(bRuns).hasValue(0);
        StateSnapshot s = state(graph, thread);
        assertThat(s.next()).containsExactly("b");
        assertThat(s.interrupts()).extracting(Interrupt::when).containsExactly(Interrupt.When.BEFORE);

        List<GraphEvent> end = run(graph, b.on(thread));

        assertThat(startedNodes(end)).containsExactly("b");
        assertThat(ids(finished(end).state().get(MSGS))).containsExactly("u", "a", "b");
        assertThat(aRuns).hasValue(1);
        assertThat(bRuns).hasValue(1);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void interruptAfterStopsAfterTheNodeAndAPlainContinueGoesOn(Backends.Backend b) {
        AtomicInteger aRuns = new AtomicInteger();
        AtomicInteger bRuns = new AtomicInteger();
        CompiledGraph graph = aThenB(b.options().interruptAfter("a"), aRuns, bRuns);
        String thread = newThread();

        GraphEvent.Interrupted stop = interrupted(run(graph, b.on(thread).input(user("hi"))));

        assertThat(stop.interrupts()).singleElement().satisfies(i -> {
            assertThat(i.when()).isEqualTo(Interrupt.When.AFTER);
            assertThat(i.node()).isEqualTo("a");
        });
        assertThat(aRuns).hasValue(1);
        assertThat(bRuns).hasValue(0);
        StateSnapshot s = state(graph, thread);
        assertThat(s.next()).containsExactly("b");
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "a");

        List<GraphEvent> end = run(graph, b.on(thread));

        assertThat(startedNodes(end)).containsExactly("b");
        assertThat(ids(finished(end).state().get(MSGS))).containsExactly("u", "a", "b");
        assertThat(aRuns).hasValue(1);
        assertThat(bRuns).hasValue(1);
    }
}
