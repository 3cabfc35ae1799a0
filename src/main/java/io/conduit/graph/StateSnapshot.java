package io.conduit.graph;

import io.conduit.checkpoint.CheckpointSource;
import java.util.List;
import java.util.Map;

/**
 * A thread's state at one checkpoint, as clients inspect it (LangGraph's {@code ThreadState}): the values, what
 * runs next, the interrupts waiting for an answer.
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
        Map<String, String> metadata,
        long createdAtMillis) {

    /** Whether the thread waits for a client's answer to an {@code interrupt()} (not merely at a breakpoint). */
    public boolean waitsForAnswer() {
        return interrupts.stream().anyMatch(Interrupt::answerable);
    }
}
