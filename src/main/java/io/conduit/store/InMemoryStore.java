package io.conduit.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The embedded default: items in a map, lost when the process stops. A query ranks by the share of its words found
 * in the value's text (Postgres uses full-text search instead: the order of equally relevant items may differ).
 */
public final class InMemoryStore implements Store {

    private record Entry(StoreItem item, Duration ttl, Instant expiresAt) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Map<String, Entry> items = new HashMap<>();
    private final Clock clock;

    public InMemoryStore(Clock clock) {
        this.clock = clock;
    }

    private static String id(List<String> namespace, String key) {
        return Namespaces.join(namespace) + "\u0000" + key;
    }

    @Override
    public synchronized Uni<Void> put(List<String> namespace, String key, Map<String, Object> value, Duration ttl) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key, value);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        Entry old = live(id(namespace, key), now);
        StoreItem item = new StoreItem(namespace, key, Map.copyOf(value), old == null ? now : old.item().createdAt(), now, null);
        items.put(id(namespace, key), new Entry(item, ttl, ttl == null ? null : now.plus(ttl)));
        return Uni.createFrom().voidItem();
    }

    @Override
    public synchronized Uni<Optional<StoreItem>> get(List<String> namespace, String key, boolean refreshTtl) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        Entry e = live(id(namespace, key), now);
        if (e != null && refreshTtl) {
            refresh(e, now);
        }
        return Uni.createFrom().item(Optional.ofNullable(e == null ? null : e.item()));
    }

    @Override
    public synchronized Uni<Void> delete(List<String> namespace, String key) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        items.remove(id(namespace, key));
        return Uni.createFrom().voidItem();
    }

    @Override
    public synchronized Uni<List<StoreItem>> search(StoreSearch s) {
        IllegalArgumentException refused = ItemRules.refusal(s);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        List<Entry> found = new ArrayList<>();
        for (Entry e : items.values()) {
            if (alive(e, now) && Namespaces.startsWith(e.item().namespace(), s.prefix()) && StoreFilter.matches(e.item().value(), s.filter())) {
                found.add(e);
            }
        }
        List<StoreItem> ranked = new ArrayList<>();
        for (Entry e : found) {
            ranked.add(s.ranked() ? e.item().withScore(score(e.item(), s.query())) : e.item());
        }
        Comparator<StoreItem> newest = Comparator.comparing(StoreItem::updatedAt).reversed().thenComparing(StoreItem::key);
        ranked.sort(s.ranked() ? Comparator.comparing(StoreItem::score).reversed().thenComparing(newest) : newest);
        List<StoreItem> page = ranked.stream().filter(i -> !s.ranked() || i.score() > 0).skip(s.offset()).limit(s.limit()).toList();
        if (s.refreshTtl()) {
            page.forEach(i -> refresh(items.get(id(i.namespace(), i.key())), now));
        }
        return Uni.createFrom().item(page);
    }

    @Override
    public synchronized Uni<List<List<String>>> namespaces(List<String> prefix, List<String> suffix, Integer maxDepth, int limit, int offset) {
        IllegalArgumentException refused = ItemRules.refusal(prefix) != null ? ItemRules.refusal(prefix) : ItemRules.refusal(suffix);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        Set<List<String>> all = new LinkedHashSet<>();
        items.values().stream().filter(e -> alive(e, now)).forEach(e -> all.add(e.item().namespace()));
        return Uni.createFrom().item(Namespaces.list(all, prefix, suffix, maxDepth, limit, offset));
    }

    @Override
    public synchronized Uni<Integer> sweep() {
        Instant now = clock.instant();
        int before = items.size();
        items.values().removeIf(e -> !alive(e, now));
        return Uni.createFrom().item(before - items.size());
    }

    private Entry live(String id, Instant now) {
        Entry e = items.get(id);
        return e != null && alive(e, now) ? e : null;
    }

    private static boolean alive(Entry e, Instant now) {
        return e.expiresAt() == null || e.expiresAt().isAfter(now);
    }

    private void refresh(Entry e, Instant now) {
        if (e != null && e.ttl() != null) {
            items.put(id(e.item().namespace(), e.item().key()), new Entry(e.item(), e.ttl(), now.plus(e.ttl())));
        }
    }

    /** The share of the query's words found among the words of the value's JSON text, 0 to 1. */
    private static double score(StoreItem item, String query) {
        Set<String> words = words(JSON.valueToTree(item.value()).toString());
        Set<String> wanted = words(query);
        if (wanted.isEmpty()) {
            return 0;
        }
        long hits = wanted.stream().filter(words::contains).count();
        return (double) hits / wanted.size();
    }

    private static Set<String> words(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
