package io.conduit.graph;

/** When a run's checkpoints reach the store. */
public enum Durability {
    /** Each step is stored before the next starts. */
    SYNC,
    /** Steps are stored behind the run, in order, and flushed before it reports finished or interrupted. */
    ASYNC
}
