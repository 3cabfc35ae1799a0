package io.conduit.graph;

/** An item of a {@link MessageList}: writes with an id already in the list replace that item. */
public interface Identified {
    String id();
}
