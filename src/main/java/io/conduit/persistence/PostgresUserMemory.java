package io.conduit.persistence;

import io.conduit.agent.port.UserMemory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** User memory in PostgreSQL ({@code conduit_user_memory}), through the reactive client. */
public final class PostgresUserMemory implements UserMemory {

    private final SqlClient client;

    public PostgresUserMemory(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<Map<String, String>> all(String userId) {
        return client.preparedQuery("SELECT key, value FROM conduit_user_memory WHERE user_id = $1 ORDER BY key")
                .execute(Tuple.of(userId)).map(rows -> {
                    Map<String, String> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        out.put(r.getString(0), r.getString(1));
                    }
                    return out;
                });
    }

    @Override
    public Uni<Optional<String>> get(String userId, String key) {
        return client.preparedQuery("SELECT value FROM conduit_user_memory WHERE user_id = $1 AND key = $2")
                .execute(Tuple.of(userId, key))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getString(0)));
    }

    @Override
    public Uni<Void> put(String userId, String key, String value) {
        return client.preparedQuery("INSERT INTO conduit_user_memory (user_id, key, value) VALUES ($1, $2, $3) "
                        + "ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()")
                .execute(Tuple.of(userId, key, value)).replaceWithVoid();
    }
}
