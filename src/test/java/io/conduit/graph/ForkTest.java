package io.conduit.graph;

import io.conduit.checkpoint.CheckpointSource;
import io.conduit.kernel.TimeOrderedIds;
import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.failed;
import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Time travel: starting a run from an older checkpoint, and the order and links of checkpoint ids. */
class ForkTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    /** Replies to the newest user message. */
    private static CompiledGraph echo(Backends.Backend b) {
        return StateGraph.of(StateSchema.of(MSGS))
                .node("reply", (s, ctx) -> done(Update.of(MSGS, Msg.ai("re-" + s.get(MSGS).last().id(), "ok"))))
                .edge(START, "reply").edge("reply", END)
                .compile(b.options());
    }

    private static Update user(String id) {
        return Update.of(MSGS, Msg.user(id, id));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aRunFromAnOlderCheckpointForksTheThreadThere(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        String endOfTurn1 = finished(run(graph, b.on(thread).input(user("u1")))).checkpointId();
        run(graph, b.on(thread).input(user("u2")));
        String endOfTurn3 = finished(run(graph, b.on(thread).input(user("u3")))).checkpointId();
        List<StateSnapshot> before = history(graph, thread);
        assertThat(before).hasSize(6);
        assertThat(before.get(4).checkpointId()).as("turn 1's end, from history").isEqualTo(endOfTurn1);

        List<GraphEvent> fork = run(graph, b.on(thread).fromCheckpoint(before.get(4).checkpointId()).input(user("u4")));

        assertThat(ids(finished(fork).state().get(MSGS))).containsExactly("u1", "re-u1", "u4", "re-u4");
        StateSnapshot head = state(graph, thread);
        assertThat(ids(head.values().get(MSGS))).containsExactly("u1", "re-u1", "u4", "re-u4");
        List<StateSnapshot> after = history(graph, thread);
        assertThat(after).hasSize(8);
        StateSnapshot forkInput = after.get(1);
        assertThat(forkInput.source()).isEqualTo(CheckpointSource.FORK);
        assertThat(forkInput.parentCheckpointId()).isEqualTo(endOfTurn1);
        assertThat(head.parentCheckpointId()).isEqualTo(forkInput.checkpointId());

        // the old branch is intact
        assertThat(after.subList(2, 8)).extracting(StateSnapshot::checkpointId)
                .containsExactlyElementsOf(before.stream().map(StateSnapshot::checkpointId).toList());
        StateSnapshot oldEnd = Runs.await(graph.state(thread, endOfTurn3)).orElseThrow();
        assertThat(ids(oldEnd.values().get(MSGS))).containsExactly("u1", "re-u1", "u2", "re-u2", "u3", "re-u3");

        // and the new head continues on the fork
        run(graph, b.on(thread).input(user("u5")));
        assertThat(ids(state(graph, thread).values().get(MSGS))).containsExactly("u1", "re-u1", "u4", "re-u4", "u5", "re-u5");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void checkpointIdsSortInCreationOrderAndEachLinksToThePreviousOne(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        List<String> emitted = new ArrayList<>();
        for (String u : List.of("u1", "u2", "u3")) {
            List<GraphEvent> events = run(graph, b.on(thread).input(user(u)));
            emitted.add(((GraphEvent.RunStarted) events.get(0)).checkpointId());
            ofType(events, GraphEvent.Values.class).forEach(v -> emitted.add(v.checkpointId()));
        }

        assertThat(emitted).as("ids in the order they were made").isSortedAccordingTo(Comparator.naturalOrder())
                .doesNotHaveDuplicates();
        List<StateSnapshot> history = history(graph, thread);
        List<String> ids = history.stream().map(StateSnapshot::checkpointId).toList();
        assertThat(ids).isSortedAccordingTo(Comparator.reverseOrder()).doesNotHaveDuplicates();
        assertThat(ids).containsExactlyElementsOf(emitted.reversed());
        for (int i = 0; i < history.size() - 1; i++) {
            assertThat(history.get(i).parentCheckpointId()).isEqualTo(history.get(i + 1).checkpointId());
        }
        assertThat(history.get(history.size() - 1).parentCheckpointId()).isNull();
        assertThat(history).extracting(StateSnapshot::step).isSortedAccordingTo(Comparator.reverseOrder());

        // paging with "before" continues where a page ended
        List<StateSnapshot> page1 = Runs.await(graph.history(thread, 2, null));
        List<StateSnapshot> page2 = Runs.await(graph.history(thread, 2, page1.get(1).checkpointId()));
        assertThat(page1).extracting(StateSnapshot::checkpointId).containsExactlyElementsOf(ids.subList(0, 2));
        assertThat(page2).extracting(StateSnapshot::checkpointId).containsExactlyElementsOf(ids.subList(2, 4));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void forkingFromAnUnknownCheckpointFails(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String thread = newThread();
        run(graph, b.on(thread).input(user("u1")));
        String head = state(graph, thread).checkpointId();

        failed(run(graph, b.on(thread).fromCheckpoint(TimeOrderedIds.next()).input(user("u2"))), "unknown_thread");

        assertThat(state(graph, thread).checkpointId()).isEqualTo(head);
    }
}
