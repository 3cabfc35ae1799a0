package io.conduit.runs;

import io.conduit.runs.submission.ThreadDeletion;
import io.smallrye.mutiny.Uni;

/**
 * What a thread owns beyond its checkpoints, runs and record (its uploaded files): {@link ThreadDeletion} deletes it
 * with the thread. Every bean of this type is called.
 */
public interface ThreadData {

    /** Deletes everything of the thread's; nothing to delete is fine. */
    Uni<Void> deleteThread(String threadId);
}
