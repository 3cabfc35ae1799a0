package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.graph.TestMessages.Item;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Graph definitions that compile() rejects, and the Mermaid drawing of one that compiles. */
class BadGraphTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final Node NOOP = (s, ctx) -> done(Update.none());

    private static StateGraph graph() {
        return StateGraph.of(StateSchema.of(MSGS));
    }

    private static void assertInvalid(ThrowingCallable compile, String mentions) {
        assertThatThrownBy(compile)
                .isInstanceOfSatisfying(GraphException.class, e -> assertThat(e.code()).isEqualTo(GraphException.Code.INVALID_GRAPH))
                .hasMessageContaining(mentions);
    }

    @Test
    void anEdgeToAnUnknownNode() {
        assertInvalid(() -> graph().node("a", NOOP).edge(START, "a").edge("a", "ghost").compile(), "ghost");
    }

    @Test
    void anEdgeFromAnUnknownNode() {
        assertInvalid(() -> graph().node("a", NOOP).edge(START, "a").edge("a", END).edge("ghost", "a").compile(), "ghost");
    }

    @Test
    void aRouterTargetThatIsNotANode() {
        assertInvalid(() -> graph().node("a", NOOP).edge(START, "a").route("a", s -> Route.to(END), "ghost", END).compile(), "ghost");
    }

    @Test
    void endUnreachable() {
        assertInvalid(() -> graph().node("a", NOOP).node("b", NOOP)
                .edge(START, "a").edge("a", "b").edge("b", "a").compile(), "END");
    }

    @Test
    void aNodeWithoutOutgoingEdge() {
        assertInvalid(() -> graph().node("a", NOOP).node("b", NOOP)
                .edge(START, "a").edge(START, "b").edge("a", END).compile(), "node b has no outgoing edge");
    }

    @Test
    void noEdgeFromStart() {
        assertInvalid(() -> graph().node("a", NOOP).edge("a", END).compile(), "START");
    }

    @Test
    void anEdgeToStart() {
        assertInvalid(() -> graph().node("a", NOOP).edge(START, "a").edge("a", START).edge("a", END).compile(), "START");
    }

    @Test
    void aBreakpointOnAnUnknownNode() {
        assertInvalid(() -> graph().node("a", NOOP).edge(START, "a").edge("a", END)
                .compile(GraphOptions.defaults().interruptBefore("ghost")), "ghost");
    }

    @Test
    void badNodeNames() {
        assertInvalid(() -> graph().node("a", NOOP).node("a", NOOP), "twice");
        assertInvalid(() -> graph().node("a:b", NOOP), "a:b");
        assertInvalid(() -> graph().node("__x", NOOP), "__x");
    }

    @Test
    void mermaidDrawsEveryNodeEdgeAndRouterTarget() {
        String drawing = graph()
                .node("plan", NOOP).node("tool", NOOP).node("answer", NOOP).node("wild", NOOP)
                .edge(START, "plan")
                .route("plan", s -> Route.to("tool"), "tool", "answer")
                .edge("tool", "plan")
                .edge("answer", END)
                .route("wild", s -> Route.to(END))
                .edge(START, "wild")
                .compile()
                .mermaid();

        assertThat(drawing).startsWith("graph TD;");
        assertThat(drawing).contains("plan(\"plan\")", "tool(\"tool\")", "answer(\"answer\")", "wild(\"wild\")",
                START + "([\"START\"])", END + "([\"END\"])");
        assertThat(drawing).contains(START + " --> plan;", "tool --> plan;", "answer --> " + END + ";", START + " --> wild;");
        assertThat(drawing).contains("plan -.-> tool;", "plan -.-> answer;");
        assertThat(drawing).doesNotContain("plan --> tool", "wild -.->");
    }
}
