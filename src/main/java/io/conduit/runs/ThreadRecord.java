package io.conduit.runs;

import java.time.Instant;
import java.util.Map;

/**
 * A thread's record beside its checkpoints: metadata, status and times. {@code expiresAt} is set by a TTL (null:
 * never).
 */
public record ThreadRecord(String threadId, Map<String, Object> metadata, ThreadStatus status, Instant createdAt,
                           Instant updatedAt, Instant expiresAt) {

    public ThreadRecord {
        metadata = metadata == null ? Map.of() : metadata;
    }
}
