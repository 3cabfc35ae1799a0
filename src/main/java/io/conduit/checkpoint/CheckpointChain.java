package io.conduit.checkpoint;

import java.util.List;
import java.util.Map;

/**
 * What a store returns to rebuild the state at a checkpoint: the values of the nearest snapshot at or above it and
 * the checkpoints written since, oldest first. When the target itself holds a snapshot, {@code since} is empty.
 *
 * @param base  full channel values at the snapshot; empty when the chain reaches the start of the namespace
 * @param since checkpoints after the snapshot up to and including the target, oldest first
 */
public record CheckpointChain(Checkpoint target, Map<String, Stored> base, List<Checkpoint> since) {
}
