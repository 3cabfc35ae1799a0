package io.conduit.graph;

import java.util.List;
import java.util.Map;

/** Draws a graph as a Mermaid flowchart: solid arrows for edges, dotted ones for the targets of routers. */
final class Mermaid {

    private Mermaid() {
    }

    static String draw(List<String> nodeOrder, Map<String, List<String>> edges, Map<String, List<StateGraph.Branch>> branches) {
        StringBuilder sb = new StringBuilder("graph TD;\n");
        sb.append("    ").append(StateGraph.START).append("([\"START\"]):::first\n");
        for (String n : nodeOrder) {
            sb.append("    ").append(n).append("(\"").append(n).append("\")\n");
        }
        sb.append("    ").append(StateGraph.END).append("([\"END\"]):::last\n");
        edges.forEach((from, tos) -> tos.forEach(to -> sb.append("    ").append(from).append(" --> ").append(to).append(";\n")));
        branches.forEach((from, bs) -> bs.forEach(b -> {
            if (b.targets().isEmpty()) {
                sb.append("    %% ").append(from).append(" has a router with undeclared targets\n");
            }
            b.targets().forEach(to -> sb.append("    ").append(from).append(" -.-> ").append(to).append(";\n"));
        }));
        sb.append("    classDef first fill-opacity:0\n    classDef last fill:#bfb6fc\n");
        return sb.toString();
    }
}
