package io.conduit.checkpoint;

/**
 * A write of one task of an unfinished superstep, stored as the task finishes so that a crash, a failure or an
 * interrupt re-runs only the tasks that had not finished. Besides channel writes, a task records bookkeeping under
 * reserved channel names (see the constants).
 *
 * @param taskId deterministic for a checkpoint and a task position, so a re-run finds its earlier writes
 * @param idx    order of the write within the task
 */
public record PendingWrite(String taskId, String node, int idx, String channel, Stored value) {

    /** The task finished; its channel writes are complete. */
    public static final String DONE = "__done__";
    /** The task paused on {@code interrupt(payload)}; the value is the interrupt. */
    public static final String INTERRUPT = "__interrupt__";
    /** A value a client sent to resume the task, one per interrupt in call order. */
    public static final String RESUME = "__resume__";
    /** Nodes the task sent the run to ({@code Update.goTo}). */
    public static final String GOTO = "__goto__";
}
