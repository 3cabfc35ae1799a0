package io.conduit.store;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store as a run sees it for its user: every namespace lies under {@code ["users", <user id>]}, so a node or a
 * tool of one user's run never reads or writes another user's items. Namespaces given and returned are relative to
 * that root. The user id becomes one label: {@code %} and {@code .} are escaped, so distinct ids never share one.
 */
public final class UserStore {

    public static final String ROOT = "users";

    private final Store store;
    private final List<String> base;

    public UserStore(Store store, String userId) {
        if (userId == null || userId.isEmpty()) {
            throw new IllegalArgumentException("a user's store needs the run's user_id");
        }
        this.store = store;
        this.base = List.of(ROOT, label(userId));
    }

    /** The user id as a namespace label. */
    static String label(String userId) {
        return userId.replace("%", "%25").replace(".", "%2E");
    }

    public Uni<Void> put(List<String> namespace, String key, Map<String, Object> value, Duration ttl) {
        return store.put(under(namespace), key, value, ttl);
    }

    public Uni<Optional<StoreItem>> get(List<String> namespace, String key) {
        return store.get(under(namespace), key, true).map(i -> i.map(this::relative));
    }

    public Uni<Void> delete(List<String> namespace, String key) {
        return store.delete(under(namespace), key);
    }

    public Uni<List<StoreItem>> search(List<String> prefix, Map<String, Object> filter, String query, int limit) {
        return store.search(new StoreSearch(under(prefix), filter, query, limit, 0, true)).map(items -> items.stream().map(this::relative).toList());
    }

    private List<String> under(List<String> namespace) {
        Namespaces.checkLabels(namespace);
        List<String> out = new ArrayList<>(base);
        out.addAll(namespace);
        return out;
    }

    private StoreItem relative(StoreItem i) {
        return new StoreItem(i.namespace().subList(base.size(), i.namespace().size()), i.key(), i.value(), i.createdAt(), i.updatedAt(), i.score());
    }
}
