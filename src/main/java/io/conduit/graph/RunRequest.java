package io.conduit.graph;

import java.util.Map;
import java.util.Set;

/**
 * One run of a graph on a thread. With {@code input}, a new turn starts from the thread's latest checkpoint (or
 * from {@code checkpointId}, which forks the thread there). With a {@link Command}, the thread's pending step
 * resumes. With neither, the run continues from where the thread stopped (a breakpoint, a crash).
 */
public record RunRequest(
        String threadId,
        String runId,
        Update input,
        Command command,
        String checkpointId,
        Durability durability,
        Integer recursionLimit,
        Set<String> interruptBefore,
        Set<String> interruptAfter,
        Map<String, String> metadata,
        Map<String, Object> configurable,
        WriteFence fence) {

    public static RunRequest on(String threadId) {
        return new RunRequest(threadId, null, null, null, null, Durability.SYNC, null, Set.of(), Set.of(), Map.of(), Map.of(), WriteFence.NONE);
    }

    public RunRequest input(Update update) {
        return new RunRequest(threadId, runId, update, command, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest command(Command c) {
        return new RunRequest(threadId, runId, input, c, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest fromCheckpoint(String id) {
        return new RunRequest(threadId, runId, input, command, id, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest durability(Durability d) {
        return new RunRequest(threadId, runId, input, command, checkpointId, d, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest recursionLimit(int limit) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, limit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest interruptBefore(String... nodes) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, recursionLimit, Set.of(nodes), interruptAfter, metadata, configurable, fence);
    }

    public RunRequest interruptAfter(String... nodes) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, recursionLimit, interruptBefore, Set.of(nodes), metadata, configurable, fence);
    }

    /**
     * The same run, continuing from where the thread stopped: no input, no command, no fork point. For a run that
     * already began its turn (its process died): what it was given is in its checkpoints.
     */
    public RunRequest continuing() {
        return new RunRequest(threadId, runId, null, null, null, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    public RunRequest runId(String id) {
        return new RunRequest(threadId, id, input, command, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable, fence);
    }

    /** Per-run settings the nodes may read ({@link NodeContext#configurable}): LangGraph's {@code config.configurable}. */
    public RunRequest configurable(Map<String, Object> c) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, metadata, Map.copyOf(c), fence);
    }

    /** A run whose writes to the store each wait for {@code f}, and are not attempted when it fails. */
    public RunRequest fence(WriteFence f) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, metadata, configurable,
                java.util.Objects.requireNonNull(f, "fence"));
    }

    public RunRequest metadata(Map<String, String> m) {
        return new RunRequest(threadId, runId, input, command, checkpointId, durability, recursionLimit, interruptBefore, interruptAfter, Map.copyOf(m), configurable, fence);
    }

}
