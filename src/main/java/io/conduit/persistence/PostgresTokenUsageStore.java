package io.conduit.persistence;

import io.conduit.runs.TokenUsageStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.LocalDate;

/**
 * Token usage per principal and day in PostgreSQL ({@code conduit_principal_usage}, V8). An addition is one upsert,
 * so replicas adding at once for one principal lose nothing.
 */
public final class PostgresTokenUsageStore implements TokenUsageStore {

    private final SqlClient client;

    public PostgresTokenUsageStore(SqlClient client) {
        this.client = client;
    }

    @Override
    public Uni<Long> add(String principal, LocalDate day, long tokens) {
        return client.preparedQuery("INSERT INTO conduit_principal_usage (principal, day, tokens) VALUES ($1, $2, $3) "
                        + "ON CONFLICT (principal, day) DO UPDATE SET tokens = conduit_principal_usage.tokens + EXCLUDED.tokens "
                        + "RETURNING tokens")
                .execute(Tuple.of(principal, day, tokens))
                .map(rows -> rows.iterator().next().getLong("tokens"));
    }

    @Override
    public Uni<Long> used(String principal, LocalDate day) {
        return client.preparedQuery("SELECT tokens FROM conduit_principal_usage WHERE principal = $1 AND day = $2")
                .execute(Tuple.of(principal, day))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next().getLong("tokens") : 0L);
    }

    @Override
    public Uni<Integer> forgetBefore(LocalDate day) {
        return client.preparedQuery("DELETE FROM conduit_principal_usage WHERE day < $1").execute(Tuple.of(day))
                .map(rows -> rows.rowCount());
    }
}
