package io.conduit.runs;

import java.time.Instant;
import java.util.Map;

/**
 * An assistant: a registered graph ({@code graphId}) plus a configuration that overrides the graph's defaults
 * ({@code config.configurable}: model, system prompt, allowed tools, retry budget...). Each change is a new
 * {@code version}; the record read by id is the version marked latest.
 */
public record Assistant(String assistantId, String graphId, String name, String description, Map<String, Object> config,
                        Map<String, Object> context, Map<String, Object> metadata, int version, Instant createdAt,
                        Instant updatedAt) {

    public Assistant {
        config = config == null ? Map.of() : config;
        context = context == null ? Map.of() : context;
        metadata = metadata == null ? Map.of() : metadata;
    }
}
