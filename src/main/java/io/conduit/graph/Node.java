package io.conduit.graph;

import io.smallrye.mutiny.Uni;

/** A step of a graph: reads the state, returns only what it changes. Must not block the calling thread. */
@FunctionalInterface
public interface Node {
    Uni<Update> run(State state, NodeContext ctx);
}
