package io.conduit.graph;

import static io.conduit.graph.Runs.TIMEOUT;
import static io.conduit.graph.Runs.done;
import static io.conduit.graph.Runs.interrupted;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.ofType;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** A subgraph's own state, read by the namespace its events carry, while the parent is paused inside it. */
class SubgraphStateTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final StateSchema SCHEMA = StateSchema.of(MSGS);

    @ParameterizedTest
    @MethodSource("io.conduit.graph.Backends#all")
    void aPausedSubgraphsStateIsReadByItsNamespace(Backends.Backend b) {
        CompiledGraph sub = StateGraph.of(SCHEMA)
                .node("draft", (s, ctx) -> done(Update.of(MSGS, Msg.ai("draft", "a draft"))))
                .node("ask", (s, ctx) -> done(Update.of(MSGS, Msg.ai("answer", ctx.interrupt("approve?", String.class)))))
                .edge(START, "draft").edge("draft", "ask").edge("ask", END)
                .compile();
        CompiledGraph graph = StateGraph.of(SCHEMA)
                .node("review", sub)
                .edge(START, "review").edge("review", END)
                .compile(b.options());
        String thread = newThread();

        List<GraphEvent> events = run(graph, b.on(thread).input(Update.of(MSGS, Msg.user("u", "u"))));
        interrupted(events);
        String ns = ofType(events, GraphEvent.TaskStarted.class).stream().filter(e -> "draft".equals(e.tag().node()))
                .findFirst().orElseThrow().tag().ns();
        assertThat(ns).startsWith("review:");

        StateSnapshot inner = graph.state(thread, List.of(ns)).await().atMost(TIMEOUT).orElseThrow();
        assertThat(ids(inner.values().get(MSGS))).containsExactly("u", "draft");
        assertThat(inner.next()).containsExactly("ask");
        assertThat(inner.interrupts()).extracting(Interrupt::value).containsExactly("approve?");
        assertThat(inner.ns()).isEqualTo(ns);

        StateSnapshot root = graph.state(thread, List.of()).await().atMost(TIMEOUT).orElseThrow();
        assertThat(root.checkpointId()).isEqualTo(graph.state(thread).await().atMost(TIMEOUT).orElseThrow().checkpointId());
        assertThat(root.next()).containsExactly("review");

        for (List<String> unknown : List.of(List.of("nowhere:1"), List.of("review"), List.of(ns, "deeper:2"), List.of("review:no-such-task"))) {
            assertThat(graph.state(thread, unknown).await().atMost(TIMEOUT)).as(unknown.toString()).isEqualTo(Optional.empty());
        }
    }
}
