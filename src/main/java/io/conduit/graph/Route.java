package io.conduit.graph;

import java.util.List;

/** Where a router sends the run: node names (or {@link StateGraph#END}) and dynamic {@link Send}s. */
public record Route(List<String> nodes, List<Send> sends) {

    public static Route to(String... nodes) {
        return new Route(List.of(nodes), List.of());
    }

    public static Route to(List<String> nodes) {
        return new Route(List.copyOf(nodes), List.of());
    }

    public static Route send(List<Send> sends) {
        return new Route(List.of(), List.copyOf(sends));
    }
}
