package io.conduit.runs;

import java.time.Instant;
import java.util.Map;

/**
 * A run record. A run is created {@code pending} and executed by a worker that claims it; {@code spec} is the
 * request that created it (input, command, stream modes, config...), stored as its JSON {@code kwargs}
 * ({@link RunSpecJson}), so any worker can run it. {@code notBefore} delays it ({@code after_seconds});
 * {@code workerId} is the worker that holds it while running.
 */
public record Run(String runId, String threadId, String assistantId, RunStatus status, Map<String, Object> metadata,
                  MultitaskStrategy multitaskStrategy, RunSpec spec, Instant createdAt, Instant updatedAt,
                  Instant notBefore, String workerId) {

    public Run {
        metadata = metadata == null ? Map.of() : metadata;
        spec = spec == null ? RunSpec.NONE : spec;
    }

    public Run withStatus(RunStatus s, Instant at) {
        return new Run(runId, threadId, assistantId, s, metadata, multitaskStrategy, spec, createdAt, at, notBefore, workerId);
    }

    public Run claimedBy(String worker, Instant at) {
        return new Run(runId, threadId, assistantId, RunStatus.RUNNING, metadata, multitaskStrategy, spec, createdAt, at, notBefore, worker);
    }
}
