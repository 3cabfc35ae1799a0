package io.conduit.checkpoint;

import java.util.List;
import java.util.Map;

/**
 * One step of a thread, as stored. It holds only what the step changed: the new values of value channels it wrote,
 * and for delta channels (messages) the writes themselves. The full state at a checkpoint is the nearest snapshot
 * up its parent chain plus everything written since ({@link CheckpointChain}).
 *
 * @param id          a UUIDv7: ids of one thread sort lexicographically in creation order
 * @param createdAtMillis the millisecond in the id (stores may keep only the id)
 * @param parentId    the checkpoint this one was built on, {@code null} for the first of a namespace
 * @param step        LangGraph's numbering: -1 for an input checkpoint of a new thread, then one per superstep
 * @param source      what wrote it: an input, the loop, an update or a fork
 * @param values      value channels written at this step, by channel name
 * @param deltas      delta channels written at this step: the list of writes, by channel name
 * @param next        the tasks that run after this checkpoint; empty when the run has ended
 * @param chainLength checkpoints since the nearest snapshot on this lineage, this one included
 */
public record Checkpoint(
        String threadId,
        String ns,
        String id,
        String parentId,
        int step,
        CheckpointSource source,
        String runId,
        Map<String, Stored> values,
        Map<String, Stored> deltas,
        List<TaskSpec> next,
        Map<String, String> metadata,
        long createdAtMillis,
        int chainLength) {
}
