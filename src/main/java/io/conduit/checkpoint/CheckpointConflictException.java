package io.conduit.checkpoint;

/** Another writer advanced the thread first: the head is no longer the checkpoint this writer started from. */
public final class CheckpointConflictException extends RuntimeException {

    private final String threadId;

    public CheckpointConflictException(String threadId, String ns, String expectedHead) {
        super("thread " + threadId + (ns.isEmpty() ? "" : " (namespace " + ns + ")")
                + " was advanced by another run; expected head " + expectedHead);
        this.threadId = threadId;
    }

    public String threadId() {
        return threadId;
    }
}
