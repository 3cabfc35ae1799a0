package io.conduit.graph;

/**
 * How a subgraph with a state of its own meets its parent (LangGraph's "different state schemas" pattern): what it
 * starts from, and what its result writes to the parent. Without one, state crosses by channel name
 * ({@link SubgraphNode}). A subgraph node reached by a {@link Send} reads the Send's input through
 * {@code ctx.input(type)}, so one node can run many independent sub-tasks.
 */
public interface SubgraphMapping {

    /** The subgraph's first input, from the parent's state and this task ({@link NodeContext#input}). */
    Update input(State parent, NodeContext ctx);

    /** What the finished subgraph writes to the parent, from its final state. */
    Update output(State parent, State result, NodeContext ctx);
}
