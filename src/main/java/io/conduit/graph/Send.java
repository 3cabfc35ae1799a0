package io.conduit.graph;

/** Runs {@code node} in the next superstep with its own {@code input}; a router may send one node several times. */
public record Send(String node, Object input) {
}
