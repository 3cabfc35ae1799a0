package io.conduit.blueprints.tutor;

import io.conduit.graph.Identified;
import java.util.Map;

/**
 * A passage the retrieval service returned, as the {@code context} channel keeps it: its text, where it comes from,
 * its score and the service's metadata, and the query that found it. The id is the service's, or made from the
 * source and text, so the same passage found twice is kept once.
 */
public record Passage(String id, String text, String source, Double score, Map<String, Object> metadata, String query) implements Identified {

    public Passage {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
}
