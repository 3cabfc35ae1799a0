package io.conduit.store;

import java.util.List;
import java.util.Map;

/**
 * A search: items whose namespace starts with {@code prefix}, whose value matches {@code filter} (see
 * {@link StoreFilter}), ranked by relevance to {@code query} when there is one (else newest first), a page of
 * {@code limit} from {@code offset}. {@code refreshTtl}: the items returned start their time to live again.
 */
public record StoreSearch(List<String> prefix, Map<String, Object> filter, String query, int limit, int offset, boolean refreshTtl) {

    public StoreSearch {
        prefix = List.copyOf(prefix);
        filter = filter == null ? Map.of() : filter;
        if (limit < 0 || offset < 0) {
            throw new IllegalArgumentException("limit and offset are 0 or more");
        }
    }

    public boolean ranked() {
        return query != null && !query.isBlank();
    }
}
