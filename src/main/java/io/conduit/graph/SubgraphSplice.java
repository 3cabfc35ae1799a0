package io.conduit.graph;

import io.conduit.graph.GraphShape.Edge;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Draws a subgraph inside its node of the parent's shape, as LangGraph's {@code get_graph(xray=...)} does: the
 * node gives way to the subgraph's nodes, prefixed {@code node:}; the subgraph's START and END are left out where
 * one node alone follows START (or leads to END), so the parent's edges into the node reach its entry and the node's
 * edges leave from its exit. A subgraph that does not start in one place keeps its START ({@code node:__start__}).
 */
final class SubgraphSplice {

    private SubgraphSplice() {
    }

    static GraphShape into(GraphShape parent, String node, GraphShape sub) {
        if (first(sub, null) == null || last(sub, null) == null) {
            return parent; // no single entry or exit to connect to: LangGraph leaves the node as it is
        }
        GraphShape inner = trimLast(trimFirst(sub));
        String entry = prefixed(node, first(inner, null));
        String exit = prefixed(node, last(inner, null));
        List<String> nodes = new ArrayList<>();
        for (String n : parent.nodes()) {
            if (n.equals(node)) {
                inner.nodes().forEach(s -> nodes.add(prefixed(node, s)));
            } else {
                nodes.add(n);
            }
        }
        List<Edge> edges = new ArrayList<>();
        for (Edge e : parent.edges()) {
            edges.add(new Edge(e.source().equals(node) ? exit : e.source(), e.target().equals(node) ? entry : e.target(), e.conditional()));
        }
        inner.edges().forEach(e -> edges.add(new Edge(prefixed(node, e.source()), prefixed(node, e.target()), e.conditional())));
        return new GraphShape(nodes, edges);
    }

    private static String prefixed(String node, String id) {
        return node + ":" + id;
    }

    /** Without its first node (START) when that has one edge and one node alone would be first after it. */
    private static GraphShape trimFirst(GraphShape g) {
        String first = first(g, null);
        boolean one = g.edges().stream().filter(e -> e.source().equals(first)).distinct().count() == 1;
        return first != null && one && first(g, first) != null ? without(g, first) : g;
    }

    /** Without its last node (END) when that has one edge and one node alone would be last before it. */
    private static GraphShape trimLast(GraphShape g) {
        String last = last(g, null);
        boolean one = g.edges().stream().filter(e -> e.target().equals(last)).distinct().count() == 1;
        return last != null && one && last(g, last) != null ? without(g, last) : g;
    }

    private static GraphShape without(GraphShape g, String node) {
        return new GraphShape(g.nodes().stream().filter(n -> !n.equals(node)).toList(),
                g.edges().stream().filter(e -> !e.source().equals(node) && !e.target().equals(node)).toList());
    }

    /** The one node no edge leads to, leaving out {@code except} and its edges; null when none or several. */
    private static String first(GraphShape g, String except) {
        Set<String> targets = g.edges().stream().filter(e -> !e.source().equals(except)).map(Edge::target).collect(Collectors.toSet());
        List<String> found = g.nodes().stream().filter(n -> !n.equals(except) && !targets.contains(n)).toList();
        return found.size() == 1 ? found.get(0) : null;
    }

    /** The one node no edge leaves, leaving out {@code except} and its edges; null when none or several. */
    private static String last(GraphShape g, String except) {
        Set<String> sources = g.edges().stream().filter(e -> !e.target().equals(except)).map(Edge::source).collect(Collectors.toSet());
        List<String> found = g.nodes().stream().filter(n -> !n.equals(except) && !sources.contains(n)).toList();
        return found.size() == 1 ? found.get(0) : null;
    }
}
