package io.conduit.graph;

import static io.conduit.graph.Runs.done;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A graph's nodes and edges as LangGraph's get_graph gives them, with subgraphs drawn inside their nodes (xray). */
class GraphShapeTest {

    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final Node NOOP = (s, ctx) -> done(Update.none());

    private static StateGraph graph() {
        return StateGraph.of(StateSchema.of(MSGS));
    }

    /** Edges as "a -> b" (plain) or "a ?> b" (conditional), in the shape's order. */
    private static List<String> edges(GraphShape shape) {
        return shape.edges().stream().map(e -> e.source() + (e.conditional() ? " ?> " : " -> ") + e.target()).toList();
    }

    @Test
    void staticEdgesAndRoutersInLangGraphsOrderWithStartAndEnd() {
        GraphShape shape = graph()
                .node("plan", NOOP).node("tool", NOOP).node("answer", NOOP).node("wild", NOOP)
                .edge(START, "plan")
                .route("plan", s -> Route.to("tool"), "tool", "answer")
                .edge("tool", "plan")
                .edge("answer", END)
                .route("wild", s -> Route.to(END)) // declares no targets: it may go anywhere
                .edge(START, "wild")
                .compile()
                .shape(0);

        assertThat(shape.nodes()).containsExactly(START, "plan", "tool", "answer", "wild", END);
        assertThat(edges(shape)).containsExactly(
                "__start__ -> plan", "__start__ -> wild",
                "plan ?> answer", "plan ?> tool",
                "tool -> plan",
                "wild ?> __end__", "wild ?> answer", "wild ?> plan", "wild ?> tool",
                "answer -> __end__");
    }

    @Test
    void oneEdgePerPairAPlainEdgeWinning() {
        GraphShape shape = graph().node("a", NOOP).node("b", NOOP)
                .edge(START, "a").edge("a", "b").route("a", s -> Route.to("b"), "b", END).edge("b", END)
                .compile().shape(0);

        assertThat(edges(shape)).containsExactly("__start__ -> a", "a ?> __end__", "a -> b", "b -> __end__");
    }

    /** START → s1 → s2 → END. */
    private static CompiledGraph linear() {
        return graph().node("s1", NOOP).node("s2", NOOP).edge(START, "s1").edge("s1", "s2").edge("s2", END).compile();
    }

    @Test
    void xrayDrawsASubgraphInsideItsNodeWithoutItsStartAndEnd() {
        CompiledGraph parent = graph().node("before", NOOP).node("sub", linear()).node("after", NOOP)
                .edge(START, "before").edge("before", "sub").edge("sub", "after").edge("after", END)
                .compile();

        GraphShape plain = parent.shape(0);
        assertThat(plain.nodes()).containsExactly(START, "before", "sub", "after", END);
        assertThat(edges(plain)).containsExactly("__start__ -> before", "before -> sub", "sub -> after", "after -> __end__");

        GraphShape xray = parent.shape(1);
        assertThat(xray.nodes()).containsExactly(START, "before", "sub:s1", "sub:s2", "after", END);
        assertThat(edges(xray)).containsExactly("__start__ -> before", "before -> sub:s1", "sub:s2 -> after", "after -> __end__",
                "sub:s1 -> sub:s2");
    }

    @Test
    void aSubgraphThatLoopsBackToItsFirstNodeKeepsItsStart() {
        // like a sub-agent: its first node is also reached from tools, so only START marks where it begins
        CompiledGraph agent = graph().node("agent", NOOP).node("tools", NOOP).node("learn", NOOP)
                .edge(START, "agent").route("agent", s -> Route.to("learn"), "tools", "learn").edge("tools", "agent").edge("learn", END)
                .compile();
        CompiledGraph parent = graph().node("supervisor", NOOP).node("helper", agent)
                .edge(START, "supervisor").route("supervisor", s -> Route.to(END), "helper", END).edge("helper", "supervisor")
                .compile();

        GraphShape xray = parent.shape(Integer.MAX_VALUE);

        assertThat(xray.nodes()).containsExactly(START, "supervisor", "helper:__start__", "helper:agent", "helper:tools", "helper:learn", END);
        assertThat(edges(xray)).containsExactly("__start__ -> supervisor", "helper:learn -> supervisor",
                "supervisor ?> __end__", "supervisor ?> helper:__start__",
                "helper:__start__ -> helper:agent", "helper:agent ?> helper:learn", "helper:agent ?> helper:tools",
                "helper:tools -> helper:agent");
        assertThat(xray.nodes().stream().filter(GraphShape::endpoint)).containsExactly(START, "helper:__start__", END);
    }

    @Test
    void xrayDepthCountsLevelsOfSubgraphs() {
        CompiledGraph middle = graph().node("m", NOOP).node("deep", linear()).edge(START, "m").edge("m", "deep").edge("deep", END).compile();
        CompiledGraph outer = graph().node("mid", middle).edge(START, "mid").edge("mid", END).compile();

        assertThat(outer.shape(1).nodes()).containsExactly(START, "mid:m", "mid:deep", END);
        assertThat(edges(outer.shape(1))).containsExactly("__start__ -> mid:m", "mid:deep -> __end__", "mid:m -> mid:deep");
        List<String> all = List.of("__start__ -> mid:m", "mid:deep:s2 -> __end__", "mid:m -> mid:deep:s1", "mid:deep:s1 -> mid:deep:s2");
        assertThat(edges(outer.shape(2))).isEqualTo(all);
        assertThat(edges(outer.shape(Integer.MAX_VALUE))).isEqualTo(all);
        assertThat(outer.shape(2).nodes()).containsExactly(START, "mid:m", "mid:deep:s1", "mid:deep:s2", END);
    }
}
