package io.conduit.store;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One stored item: its namespace (labels, outermost first), its key in it, its value (a JSON object), when it was
 * created and last written, and, in a search with a query, its relevance ({@code score}, else null).
 */
public record StoreItem(List<String> namespace, String key, Map<String, Object> value, Instant createdAt, Instant updatedAt, Double score) {

    public StoreItem {
        namespace = List.copyOf(namespace);
        value = value == null ? Map.of() : value;
    }

    public StoreItem withScore(Double s) {
        return new StoreItem(namespace, key, value, createdAt, updatedAt, s);
    }
}
