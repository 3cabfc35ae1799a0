package io.conduit.graph;

import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A copied thread starts at the source's state and goes its own way; the source is untouched. */
class CopyThreadTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();

    private static CompiledGraph echo(Backends.Backend b) {
        return StateGraph.of(StateSchema.of(MSGS))
                .node("reply", (s, ctx) -> Uni.createFrom().item(Update.of(MSGS, Msg.ai("re-" + s.get(MSGS).last().id(), "ok"))))
                .edge(START, "reply").edge("reply", END)
                .compile(b.options());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aCopyStartsAtTheSourcesStateAndGoesItsOwnWay(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String source = newThread();
        finished(run(graph, b.on(source).input(Update.of(MSGS, Msg.user("u1", "u1")))));
        String copy = newThread();

        graph.copyThread(source, copy).await().indefinitely();
        assertThat(ids(graph, copy)).containsExactly("u1", "re-u1");

        finished(run(graph, b.on(copy).input(Update.of(MSGS, Msg.user("u2", "u2")))));
        assertThat(ids(graph, copy)).containsExactly("u1", "re-u1", "u2", "re-u2");
        assertThat(ids(graph, source)).containsExactly("u1", "re-u1");
        assertThat(graph.state(copy).await().indefinitely().orElseThrow().next()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void copyingAnUnknownThreadOrOntoAnExistingOneFails(Backends.Backend b) {
        CompiledGraph graph = echo(b);
        String source = newThread();
        finished(run(graph, b.on(source).input(Update.of(MSGS, Msg.user("u1", "u1")))));
        assertThatThrownBy(() -> graph.copyThread(newThread(), newThread()).await().indefinitely())
                .isInstanceOf(GraphException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> graph.copyThread(source, source).await().indefinitely()).isNotNull();
    }

    private static java.util.List<String> ids(CompiledGraph graph, String thread) {
        return graph.state(thread).await().indefinitely().orElseThrow().values().get(MSGS).asList().stream().map(Item::id).toList();
    }
}
