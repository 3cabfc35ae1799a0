package io.conduit.graph;

/** What a running node can see of its run and say to it. */
public interface NodeContext {

    String runId();

    String threadId();

    /** Checkpoint namespace: {@code ""} at the root, {@code "node:taskId"} segments joined by {@code |} below. */
    String ns();

    String node();

    String taskId();

    int step();

    /** The input of a dynamic fan-out ({@link Send}), converted to {@code type}; null for a task made by an edge. */
    <T> T input(Class<T> type);

    /** The run's settings ({@code config.configurable}); empty when it has none. */
    default java.util.Map<String, Object> configurable() {
        return java.util.Map.of();
    }

    /** Streams a token of text the node is producing (an LLM answer) to the run's subscribers. */
    void token(String messageId, String text);

    /** Streams a piece of the reasoning behind the message {@code messageId} (a model's thinking), apart from its text. */
    void reasoning(String messageId, String text);

    /**
     * Streams a piece of a tool call that the message {@code messageId} is producing: {@code callId} and
     * {@code name} on a call's first piece, null on the rest; see {@link GraphEvent.ToolCallChunk}.
     */
    void toolCallChunk(String messageId, int index, String callId, String name, String argsDelta);

    /**
     * Announces work the node does inside it (a model or tool call) to the run's subscribers; end it with
     * {@link #childEnded} and the same {@code childId}. {@code kind} is the caller's own word ("chat_model", "tool").
     */
    default void childStarted(String childId, String kind, String name, Object input) {
        childStarted(childId, kind, name, input, null);
    }

    /** {@link #childStarted(String, String, String, Object)} of work known outside the run as {@code callId} (a tool call). */
    void childStarted(String childId, String kind, String name, Object input, String callId);

    /** Ends the work {@code childId}: {@code error} null when it succeeded with {@code output}. */
    void childEnded(String childId, String kind, String name, Object output, String error);

    /** Streams a custom event to the run's subscribers. */
    void custom(String name, Object payload);

    /**
     * Pauses the run for a human. The first time, this throws: the run stops with the payload recorded as a pending
     * interrupt. When the run is resumed with {@code Command.resume(value)}, the node runs again from the start and
     * this call returns the value, converted to {@code resumeType}. The n-th call in a node gets the n-th value.
     */
    <T> T interrupt(Object payload, Class<T> resumeType);

    /** Forwards an event of a run nested in this node (a subgraph), keeping its own tags. */
    void forward(GraphEvent event);
}
