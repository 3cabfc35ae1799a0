package io.conduit.graph;

import java.util.List;

/** What a run streams. Every event is tagged with where it happened ({@link Tag}). */
public sealed interface GraphEvent {

    Tag tag();

    /**
     * Where an event happened: the run, the thread, the checkpoint namespace (a subgraph's events keep their own),
     * the node ({@code null} for run-level events), the superstep, and the task of the node ({@code null} for
     * run-level events: parallel tasks of one node are told apart by it).
     */
    record Tag(String runId, String threadId, String ns, String node, int step, String taskId) {

        public Tag(String runId, String threadId, String ns, String node, int step) {
            this(runId, threadId, ns, node, step, null);
        }
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

    /**
     * The full state after a superstep, and the checkpoint that holds it; or, {@code start}, the state a run that
     * resumes or continues a thread starts from (as LangGraph tells it): a checkpoint {@link RunStarted} named already,
     * so neither a new checkpoint nor a step boundary.
     */
    record Values(Tag tag, State state, String checkpointId, boolean start) implements GraphEvent {
        /** After a superstep. */
        public Values(Tag tag, State state, String checkpointId) {
            this(tag, state, checkpointId, false);
        }
    }

    /** A piece of text a node is producing. */
    record Token(Tag tag, String messageId, String text) implements GraphEvent {
    }

    /**
     * A piece of the reasoning (a model's thinking) behind the message {@code messageId}, streamed apart from its text:
     * clients show it as the message's reasoning, not as its answer.
     */
    record Reasoning(Tag tag, String messageId, String text) implements GraphEvent {
    }

    /**
     * A piece of a tool call a node's message is producing (an LLM streaming a call's arguments). The pieces of one
     * call share {@code index}: the first carries {@code callId} and {@code name}, later ones leave them null, and
     * the {@code argsDelta}s of a call, in order, concatenate to its arguments (LangChain's tool-call chunks).
     */
    record ToolCallChunk(Tag tag, String messageId, int index, String callId, String name, String argsDelta) implements GraphEvent {
    }

    /**
     * A node began a unit of work inside it (a model call, a tool call), LangChain's callback runs. {@code kind} is
     * the caller's word for it ("chat_model", "tool"); the engine does not read it. {@code input} is a value that
     * serializes to JSON. The node ends it with one {@link ChildEnded} of the same {@code childId}, unless the run ends
     * first; the engine passes both on as they come and checks neither. {@code callId} is the id the work is known by
     * outside the run, if any (a tool call's id, which the model's message carries), else null.
     */
    record ChildStarted(Tag tag, String childId, String kind, String name, Object input, String callId) implements GraphEvent {

        public ChildStarted(Tag tag, String childId, String kind, String name, Object input) {
            this(tag, childId, kind, name, input, null);
        }
    }

    /**
     * The work {@code childId} ended with its {@code output}; it failed when {@code error} is not null, and
     * {@code output} then holds what it produced anyway, if anything.
     */
    record ChildEnded(Tag tag, String childId, String kind, String name, Object output, String error) implements GraphEvent {
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
