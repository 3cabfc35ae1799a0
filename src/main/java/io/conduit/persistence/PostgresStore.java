package io.conduit.persistence;

import static io.conduit.persistence.SqlValues.instant;
import static io.conduit.persistence.SqlValues.json;
import static io.conduit.persistence.SqlValues.time;

import io.conduit.runs.JsonMaps;
import io.conduit.store.ItemRules;
import io.conduit.store.Namespaces;
import io.conduit.store.Store;
import io.conduit.store.StoreFilter;
import io.conduit.store.StoreItem;
import io.conduit.store.StoreSearch;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The long-term store in PostgreSQL ({@code conduit_store}), through the reactive client. A query is full-text search
 * over the value's words ({@code to_tsvector('simple', …)}, any of the query's words, ranked by {@code ts_rank}); a
 * filter is SQL on the {@code jsonb} value (containment for equality, typed comparisons for the operators).
 */
public final class PostgresStore implements Store {

    private static final String ALIVE = "(expires_at IS NULL OR expires_at > $1)";
    private static final String COLUMNS = "namespace, key, value::text AS value, created_at, updated_at";

    private final SqlClient client;
    private final Clock clock;

    public PostgresStore(SqlClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    @Override
    public Uni<Void> put(List<String> namespace, String key, Map<String, Object> value, Duration ttl) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key, value);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        Long ttlMs = ttl == null ? null : ttl.toMillis();
        return client.preparedQuery("INSERT INTO conduit_store (namespace, key, value, created_at, updated_at, ttl_ms, expires_at) "
                        + "VALUES ($1, $2, $3::text::jsonb, $4, $4, $5, $6) ON CONFLICT (namespace, key) DO UPDATE SET value = EXCLUDED.value, "
                        + "updated_at = EXCLUDED.updated_at, ttl_ms = EXCLUDED.ttl_ms, expires_at = EXCLUDED.expires_at, "
                        // an item that had lapsed (not yet swept) is a new one
                        + "created_at = CASE WHEN conduit_store.expires_at IS NOT NULL AND conduit_store.expires_at <= $4 "
                        + "THEN EXCLUDED.created_at ELSE conduit_store.created_at END")
                .execute(Tuple.tuple().addValue(Namespaces.join(namespace)).addValue(key).addValue(json(value)).addValue(time(now))
                        .addValue(ttlMs).addValue(ttl == null ? null : time(now.plus(ttl))))
                .replaceWithVoid();
    }

    @Override
    public Uni<Optional<StoreItem>> get(List<String> namespace, String key, boolean refreshTtl) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        String sql = refreshTtl
                ? "UPDATE conduit_store SET expires_at = CASE WHEN ttl_ms IS NULL THEN NULL ELSE $1::timestamptz + ttl_ms * interval '1 millisecond' END "
                        + "WHERE namespace = $2 AND key = $3 AND " + ALIVE + " RETURNING " + COLUMNS
                : "SELECT " + COLUMNS + " FROM conduit_store WHERE namespace = $2 AND key = $3 AND " + ALIVE;
        return client.preparedQuery(sql).execute(Tuple.of(time(now), Namespaces.join(namespace), key))
                .map(rows -> SqlValues.first(rows, r -> item(r, null)));
    }

    @Override
    public Uni<Void> delete(List<String> namespace, String key) {
        IllegalArgumentException refused = ItemRules.refusal(namespace, key);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        return client.preparedQuery("DELETE FROM conduit_store WHERE namespace = $1 AND key = $2")
                .execute(Tuple.of(Namespaces.join(namespace), key)).replaceWithVoid();
    }

    @Override
    public Uni<List<StoreItem>> search(StoreSearch s) {
        IllegalArgumentException refused = ItemRules.refusal(s);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Instant now = clock.instant();
        Tuple args = Tuple.tuple().addValue(time(now));
        StringBuilder where = new StringBuilder(ALIVE);
        if (!s.prefix().isEmpty()) {
            args.addValue(Namespaces.join(s.prefix()));
            int p = args.size();
            where.append(" AND (namespace = $").append(p).append(" OR starts_with(namespace, $").append(p).append(" || '.'))");
        }
        filter(s.filter(), args, where);
        String rank = "NULL::float8";
        String order = "updated_at DESC, key";
        if (s.ranked()) {
            String terms = String.join(" | ", words(s.query()));
            if (terms.isEmpty()) {
                return Uni.createFrom().item(List.of());
            }
            args.addValue(terms);
            String q = "to_tsquery('simple', $" + args.size() + ")";
            where.append(" AND search @@ ").append(q);
            rank = "ts_rank(search, " + q + ")::float8";
            order = "score DESC, updated_at DESC, key";
        }
        args.addValue(s.limit()).addValue(s.offset());
        String sql = "SELECT " + COLUMNS + ", " + rank + " AS score FROM conduit_store WHERE " + where + " ORDER BY " + order
                + " LIMIT $" + (args.size() - 1) + " OFFSET $" + args.size();
        return client.preparedQuery(sql).execute(args).map(rows -> {
            List<StoreItem> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(item(r, r.getDouble("score")));
            }
            return out;
        }).call(items -> s.refreshTtl() && !items.isEmpty() ? refresh(items, now) : Uni.createFrom().voidItem());
    }

    /** The filter as SQL on the value: containment for equalities, typed comparisons for operators. */
    private static void filter(Map<String, Object> filter, Tuple args, StringBuilder where) {
        StoreFilter.check(filter);
        Map<String, Object> equal = new java.util.LinkedHashMap<>();
        filter.forEach((field, cond) -> {
            if (cond instanceof Map<?, ?> ops && StoreFilter.isOperators(ops)) {
                ops.forEach((op, v) -> {
                    args.addValue(field).addValue(JsonMaps.encode(Map.of("v", v)));
                    String actual = "(value -> $" + (args.size() - 1) + ")";
                    String wanted = "($" + args.size() + "::text::jsonb -> 'v')";
                    where.append(" AND ").append(switch ((String) op) {
                        case "$eq" -> actual + " = " + wanted;
                        case "$ne" -> actual + " IS DISTINCT FROM " + wanted;
                        default -> "jsonb_typeof(" + actual + ") = jsonb_typeof(" + wanted + ") AND jsonb_typeof(" + wanted
                                + ") IN ('number', 'string') AND " + actual + " " + sqlOperator((String) op) + " " + wanted;
                    });
                });
            } else {
                equal.put(field, cond);
            }
        });
        if (!equal.isEmpty()) {
            args.addValue(json(equal));
            where.append(" AND value @> $").append(args.size()).append("::text::jsonb");
        }
    }

    private static String sqlOperator(String op) {
        return switch (op) {
            case "$gt" -> ">";
            case "$gte" -> ">=";
            case "$lt" -> "<";
            case "$lte" -> "<=";
            default -> throw new IllegalArgumentException("unknown operator " + op);
        };
    }

    private Uni<Void> refresh(List<StoreItem> items, Instant now) {
        List<Tuple> batch = items.stream().map(i -> Tuple.of(time(now), Namespaces.join(i.namespace()), i.key())).toList();
        return client.preparedQuery("UPDATE conduit_store SET expires_at = $1::timestamptz + ttl_ms * interval '1 millisecond' "
                + "WHERE namespace = $2 AND key = $3 AND ttl_ms IS NOT NULL").executeBatch(batch).replaceWithVoid();
    }

    @Override
    public Uni<List<List<String>>> namespaces(List<String> prefix, List<String> suffix, Integer maxDepth, int limit, int offset) {
        IllegalArgumentException refused = ItemRules.refusal(prefix) != null ? ItemRules.refusal(prefix) : ItemRules.refusal(suffix);
        if (refused != null) {
            return Uni.createFrom().failure(refused);
        }
        Tuple args = Tuple.of(time(clock.instant()));
        String where = ALIVE;
        if (!prefix.isEmpty()) {
            args.addValue(Namespaces.join(prefix));
            where += " AND (namespace = $2 OR starts_with(namespace, $2 || '.'))";
        }
        return client.preparedQuery("SELECT DISTINCT namespace FROM conduit_store WHERE " + where).execute(args).map(rows -> {
            List<List<String>> all = new ArrayList<>();
            rows.forEach(r -> all.add(Namespaces.split(r.getString(0))));
            return Namespaces.list(all, prefix, suffix, maxDepth, limit, offset);
        });
    }

    @Override
    public Uni<Integer> sweep() {
        return client.preparedQuery("DELETE FROM conduit_store WHERE expires_at <= $1").execute(Tuple.of(time(clock.instant())))
                .map(rows -> rows.rowCount());
    }

    private static StoreItem item(Row r, Double score) {
        return new StoreItem(Namespaces.split(r.getString("namespace")), r.getString("key"), JsonMaps.decode(r.getString("value")),
                instant(r, "created_at"), instant(r, "updated_at"), score);
    }

    /** The query's words, as tsquery terms (letters and digits only, so no tsquery syntax gets through). */
    static List<String> words(String query) {
        List<String> out = new ArrayList<>();
        for (String w : query.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }
}
