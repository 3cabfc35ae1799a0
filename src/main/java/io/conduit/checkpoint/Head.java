package io.conduit.checkpoint;

import java.util.List;

/** A checkpoint with the pending writes recorded against it. */
public record Head(Checkpoint checkpoint, List<PendingWrite> pendingWrites) {
}
