package io.conduit.graph;

import static io.conduit.graph.Runs.await;
import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.kernel.TimeOrderedIds;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link CompiledGraph#rollback}: a run's checkpoints deleted, the head moved back, over every store. */
class RollbackTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    /** Replies to the newest user message; asks a question first when the message says "ask". */
    private static CompiledGraph echo(Backends.Backend b) {
        return StateGraph.of(StateSchema.of(MSGS))
                .node("reply", (s, ctx) -> {
                    Msg last = (Msg) s.get(MSGS).last();
                    String text = last.text().equals("ask") ? ctx.interrupt("sure?", String.class) : "ok";
                    return done(Update.of(MSGS, Msg.ai("re-" + last.id(), text)));
                })
                .edge(START, "reply").edge("reply", END)
                .compile(b.options());
    }

    private static Update user(String id, String text) {
        return Update.of(MSGS, Msg.user(id, text));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRolledBackTurnIsGoneAndTheThreadGoesOnFromTheTurnBefore(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        String endOfTurn1 = finished(run(graph, b.on(thread).input(user("u1", "hi")))).checkpointId();
        List<String> turn1 = history(graph, thread).stream().map(StateSnapshot::checkpointId).toList();
        String run2 = TimeOrderedIds.next();
        run(graph, b.on(thread).runId(run2).input(user("u2", "hi")));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u1", "re-u1", "u2", "re-u2");

        assertThat(await(graph.rollback(thread, run2))).isEqualTo(2L);

        StateSnapshot head = state(graph, thread);
        assertThat(head.checkpointId()).isEqualTo(endOfTurn1);
        assertThat(ids(head.values().get(MSGS))).containsExactly("u1", "re-u1");
        assertThat(history(graph, thread)).extracting(StateSnapshot::checkpointId).containsExactlyElementsOf(turn1);

        assertThat(ids(finished(run(graph, b.on(thread).input(user("u3", "hi")))).state().get(MSGS)))
                .containsExactly("u1", "re-u1", "u3", "re-u3");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void anInterruptedTurnRollsBackToo(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        String endOfTurn1 = finished(run(graph, b.on(thread).input(user("u1", "hi")))).checkpointId();
        String run2 = TimeOrderedIds.next();
        interrupted(run(graph, b.on(thread).runId(run2).input(user("u2", "ask"))));
        assertThat(state(graph, thread).interrupts()).hasSize(1);

        await(graph.rollback(thread, run2));

        StateSnapshot head = state(graph, thread);
        assertThat(head.checkpointId()).isEqualTo(endOfTurn1);
        assertThat(head.interrupts()).isEmpty();
        assertThat(head.next()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void rollingBackTheRunThatStartedTheThreadDeletesIt(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        String run1 = TimeOrderedIds.next();
        run(graph, b.on(thread).runId(run1).input(user("u1", "hi")));

        await(graph.rollback(thread, run1));

        assertThat(await(graph.state(thread))).isEmpty();
        assertThat(ids(finished(run(graph, b.on(thread).input(user("u9", "hi")))).state().get(MSGS))).containsExactly("u9", "re-u9");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRunAnotherRunBuiltOnIsNotRolledBack(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u1", "hi")));
        String run2 = TimeOrderedIds.next();
        interrupted(run(graph, b.on(thread).runId(run2).input(user("u2", "ask"))));
        String run3 = TimeOrderedIds.next();
        finished(run(graph, b.on(thread).runId(run3).command(Command.resume("yes"))));
        String head = state(graph, thread).checkpointId();

        assertThatThrownBy(() -> await(graph.rollback(thread, run2)))
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).isEqualTo(GraphException.Code.CONFLICT));
        assertThat(state(graph, thread).checkpointId()).isEqualTo(head);

        assertThatThrownBy(() -> await(graph.rollback(newThread(), run2)))
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).isEqualTo(GraphException.Code.UNKNOWN_THREAD));
    }
}
