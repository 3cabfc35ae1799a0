package io.conduit.runs;

/**
 * A run asked to start from a checkpoint its thread does not have (404; the thread protocol's
 * {@code no_such_checkpoint}): refused before anything is written, rather than stored as a run that could only fail.
 */
public class UnknownCheckpointException extends NotFoundException {

    public UnknownCheckpointException(String field, String threadId, String checkpointId) {
        super(field + ": checkpoint " + checkpointId + " not found on thread " + threadId);
    }
}
