package io.conduit.graph;

import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;

import io.conduit.graph.GraphShape.Edge;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Describes a compiled graph as a {@link GraphShape}, drawing its subgraphs inside their nodes to a depth. */
final class GraphShapes {

    /**
     * LangGraph's order, so both list a graph alike: by source, then target, a plain edge before a conditional one;
     * plain edges into END last (LangGraph finds them after the others, as the nodes that lead nowhere else).
     */
    private static final Comparator<Edge> ORDER = Comparator.comparing((Edge e) -> !e.conditional() && e.target().equals(END))
            .thenComparing(Edge::source).thenComparing(Edge::target).thenComparing(Edge::conditional);

    private GraphShapes() {
    }

    /** {@code xray}: how many levels of subgraphs to draw inside their nodes; 0 none, {@link Integer#MAX_VALUE} all. */
    static GraphShape of(CompiledGraph g, int xray) {
        List<String> nodes = new ArrayList<>();
        nodes.add(START);
        nodes.addAll(g.nodeNames());
        nodes.add(END);
        GraphShape shape = new GraphShape(nodes, edges(g));
        if (xray <= 0) {
            return shape;
        }
        int inner = xray == Integer.MAX_VALUE ? xray : xray - 1;
        for (String n : g.nodeNames()) {
            if (g.node(n) instanceof SubgraphNode sub) {
                shape = SubgraphSplice.into(shape, n, of(sub.graph(), inner));
            }
        }
        return shape;
    }

    /** Every static edge and router target, one edge per pair of nodes (a plain edge wins over a conditional one). */
    private static List<Edge> edges(CompiledGraph g) {
        List<Edge> all = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        sources.add(START);
        sources.addAll(g.nodeNames());
        for (String from : sources) {
            g.edges(from).forEach(to -> all.add(new Edge(from, to, false)));
            for (StateGraph.Branch b : g.branches(from)) {
                targets(g, from, b).forEach(to -> all.add(new Edge(from, to, true)));
            }
        }
        all.sort(ORDER);
        Set<List<String>> pairs = new HashSet<>();
        return all.stream().filter(e -> pairs.add(List.of(e.source(), e.target()))).toList();
    }

    /** A router's declared targets; one that declares none may go anywhere, so LangGraph draws it to every other node and END. */
    private static List<String> targets(CompiledGraph g, String from, StateGraph.Branch b) {
        if (!b.targets().isEmpty()) {
            return b.targets();
        }
        List<String> any = new ArrayList<>(g.nodeNames());
        any.remove(from);
        any.add(END);
        return any;
    }
}
