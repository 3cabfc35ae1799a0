package io.conduit.graph;

/** A write to a {@link MessageList} channel that removes the item with this id (LangGraph's RemoveMessage). */
public interface Removal extends Identified {
}
