package io.conduit.checkpoint;

/** A task a checkpoint says runs next: a node, and for a dynamic fan-out ({@code Send}) the input it gets. */
public record TaskSpec(String node, Stored input) {

    public static TaskSpec of(String node) {
        return new TaskSpec(node, null);
    }
}
