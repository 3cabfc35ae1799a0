package io.conduit.graph;

import io.conduit.checkpoint.CheckpointSource;
import java.util.List;
import java.util.Map;

/**
 * A thread's state at one checkpoint, as clients inspect it (LangGraph's {@code ThreadState}): the values, what
 * runs next, the interrupts waiting for an answer.
 *
 * @param interrupts       the pauses at this checkpoint: the nodes' interrupts and the static breakpoints
 * @param interruptsByTask the nodes' interrupts not yet answered, by the id of the task of {@link #next} that raised
 *                         them ({@link #taskId}): a subgraph's interrupt is its subgraph node's task's, as LangGraph
 *                         attaches it; breakpoints are in none
 */
public record StateSnapshot(
        String threadId,
        String ns,
        String checkpointId,
        String parentCheckpointId,
        int step,
        CheckpointSource source,
        State values,
        List<String> next,
        List<Interrupt> interrupts,
        Map<String, List<Interrupt>> interruptsByTask,
        Map<String, String> metadata,
        long createdAtMillis) {

    /** The id of the {@code index}-th task of {@link #next}, as the run that executes it names it. */
    public String taskId(int index) {
        return Task.id(checkpointId, index);
    }

    /** Whether the thread waits for a client's answer to an {@code interrupt()} (not merely at a breakpoint). */
    public boolean waitsForAnswer() {
        return interrupts.stream().anyMatch(Interrupt::answerable);
    }
}
