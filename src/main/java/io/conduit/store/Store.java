package io.conduit.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Items that outlive threads, by namespace and key (LangGraph's {@code BaseStore}). Namespace labels are non-empty
 * and hold no {@code .} ({@link Namespaces#check}); values are JSON objects. An item with a time to live is gone once
 * it lapses: never returned, and swept away.
 */
public interface Store {

    /** Creates or replaces the item; {@code ttl} null keeps it until deleted. */
    Uni<Void> put(List<String> namespace, String key, Map<String, Object> value, Duration ttl);

    /** The item, if present; {@code refreshTtl} starts its time to live again. */
    Uni<Optional<StoreItem>> get(List<String> namespace, String key, boolean refreshTtl);

    /** Deletes the item; nothing happens when there is none. */
    Uni<Void> delete(List<String> namespace, String key);

    Uni<List<StoreItem>> search(StoreSearch search);

    /**
     * The namespaces that hold items: those starting with {@code prefix} and ending with {@code suffix} (either may be
     * empty), cut to {@code maxDepth} labels when given, distinct and sorted, a page of {@code limit} from {@code offset}.
     */
    Uni<List<List<String>>> namespaces(List<String> prefix, List<String> suffix, Integer maxDepth, int limit, int offset);

    /** Deletes the items whose time to live has lapsed; how many. */
    Uni<Integer> sweep();
}
