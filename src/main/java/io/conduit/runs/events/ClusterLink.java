package io.conduit.runs.events;

/**
 * What the threads' logs tell the replicas' shared event exchange (none in a single process): which threads this
 * replica's clients read in which format, and when runs executed here begin and end. Called under a log's lock:
 * implementations only note or queue, never wait.
 */
public interface ClusterLink {

    /** A client here reads {@code threadId} in {@code format}: frames of its runs executed elsewhere are wanted. */
    void watching(String threadId, String format);

    /** One such client is gone. */
    void unwatched(String threadId, String format);

    /** A run of the thread begins here: its frames may be wanted by another replica's clients. */
    void began(String threadId);

    /** A run created elsewhere (or before a restart) starts here: its clients may be on the replica that created it. */
    void claimed(String threadId, String runId);

    /** A run executed here ended: its last frame of every format is written. */
    void ended(String threadId, String runId);

    /**
     * A run executed here is another replica's now ({@link ThreadLog#movedAway}): the frames that replica relayed
     * while this one held the run were not taken, and are wanted again.
     */
    default void movedAway(String threadId) {
    }

    /** A single process: nothing to tell. */
    ClusterLink NONE = new ClusterLink() {
        @Override
        public void watching(String threadId, String format) {
        }

        @Override
        public void unwatched(String threadId, String format) {
        }

        @Override
        public void began(String threadId) {
        }

        @Override
        public void claimed(String threadId, String runId) {
        }

        @Override
        public void ended(String threadId, String runId) {
        }
    };
}
