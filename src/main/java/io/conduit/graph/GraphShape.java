package io.conduit.graph;

import java.util.List;

/**
 * A graph's nodes and edges as LangGraph's {@code get_graph()} describes them, for clients that draw it: node ids
 * in order, {@link StateGraph#START} first and {@link StateGraph#END} last, and every edge a run may take. A router's
 * edges are conditional and go to the targets it declares (one that declares none may go to any other node or END).
 * A subgraph drawn inside its node ({@code xray}) has its node ids prefixed with that node's name and a colon, as
 * LangGraph prefixes them ({@code test_session:judge_answer}).
 */
public record GraphShape(List<String> nodes, List<Edge> edges) {

    public GraphShape {
        nodes = List.copyOf(nodes);
        edges = List.copyOf(edges);
    }

    /** An edge; {@code conditional} when a router picks it. */
    public record Edge(String source, String target, boolean conditional) {
    }

    /** Whether {@code id} is a START or END node: the graph's own, or a subgraph's that its drawing kept. */
    public static boolean endpoint(String id) {
        String last = id.substring(id.lastIndexOf(':') + 1); // node names hold no ':'
        return last.equals(StateGraph.START) || last.equals(StateGraph.END);
    }
}
