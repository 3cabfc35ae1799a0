package io.conduit.graph;

import java.util.List;

/** What a run streams. Every event is tagged with where it happened ({@link Tag}). */
public sealed interface GraphEvent {

    Tag tag();

    /**
     * Where an event happened: the run, the thread, the checkpoint namespace (a subgraph's events keep their own),
     * the node ({@code null} for run-level events) and the superstep.
     */
    record Tag(String runId, String threadId, String ns, String node, int step) {
    }

    /** The run began from (or created) this checkpoint. */
    record RunStarted(Tag tag, String checkpointId) implements GraphEvent {
    }

    /** A task began. */
    record TaskStarted(Tag tag, String taskId) implements GraphEvent {
    }

    /** A task finished with this update (LangGraph's {@code updates} stream mode). */
    record TaskFinished(Tag tag, String taskId, Update update) implements GraphEvent {
    }

    /** The full state after a superstep, and the checkpoint that holds it. */
    record Values(Tag tag, State state, String checkpointId) implements GraphEvent {
    }

    /** A piece of text a node is producing. */
    record Token(Tag tag, String messageId, String text) implements GraphEvent {
    }

    /** An event a node chose to stream. */
    record Custom(Tag tag, String name, Object payload) implements GraphEvent {
    }

    /** The run paused; it ends here and resumes with {@code Command.resume}. */
    record Interrupted(Tag tag, List<Interrupt> interrupts, String checkpointId) implements GraphEvent {
    }

    /** The run failed; it ends here. */
    record RunFailed(Tag tag, String code, String message) implements GraphEvent {
    }

    /** The run finished; it ends here. */
    record RunFinished(Tag tag, State state, String checkpointId) implements GraphEvent {
    }

    default boolean terminal() {
        return this instanceof Interrupted || this instanceof RunFailed || this instanceof RunFinished;
    }
}
