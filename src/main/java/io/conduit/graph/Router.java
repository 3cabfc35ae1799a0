package io.conduit.graph;

/** A conditional edge: picks where the run goes from the state after the step. */
@FunctionalInterface
public interface Router {
    Route route(State state);
}
