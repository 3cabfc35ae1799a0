package io.conduit.persistence;

import io.conduit.auth.ApiKey;
import io.conduit.auth.ApiKeyStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** API keys in PostgreSQL ({@code conduit_api_keys}, V7), by hash, through the reactive client. */
public final class PostgresApiKeyStore implements ApiKeyStore {

    private static final String COLUMNS = "key_id, key_hash, owner, admin, name, created_at, revoked_at";

    private final SqlClient client;

    public PostgresApiKeyStore(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<ApiKey> create(ApiKey key) {
        return client.preparedQuery("INSERT INTO conduit_api_keys (" + COLUMNS + ") VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .execute(Tuple.tuple().addValue(key.keyId()).addValue(key.hash()).addValue(key.owner()).addValue(key.admin())
                        .addValue(key.name()).addValue(SqlValues.time(key.createdAt())).addValue(SqlValues.time(key.revokedAt())))
                .replaceWith(key)
                .onFailure(SqlValues::isUniqueViolation)
                .transform(f -> new IllegalArgumentException("API key " + key.keyId() + " exists"));
    }

    @Override
    public Uni<Optional<ApiKey>> byHash(String hash) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM conduit_api_keys WHERE key_hash = $1 AND revoked_at IS NULL")
                .execute(Tuple.of(hash))
                .map(rows -> {
                    var it = rows.iterator();
                    return it.hasNext() ? Optional.of(key(it.next())) : Optional.<ApiKey>empty();
                });
    }

    @Override
    public Uni<List<ApiKey>> list() {
        return client.query("SELECT " + COLUMNS + " FROM conduit_api_keys ORDER BY created_at, key_id").execute()
                .map(rows -> {
                    List<ApiKey> out = new ArrayList<>();
                    rows.forEach(r -> out.add(key(r)));
                    return out;
                });
    }

    @Override
    public Uni<Boolean> revoke(String keyId, Instant at) {
        return client.preparedQuery("UPDATE conduit_api_keys SET revoked_at = $2 WHERE key_id = $1 AND revoked_at IS NULL")
                .execute(Tuple.of(keyId, SqlValues.time(at)))
                .map(rows -> rows.rowCount() == 1);
    }

    private static ApiKey key(Row r) {
        return new ApiKey(r.getString("key_id"), r.getString("key_hash"), r.getString("owner"), r.getBoolean("admin"),
                r.getString("name"), SqlValues.instant(r, "created_at"), SqlValues.instant(r, "revoked_at"));
    }
}
