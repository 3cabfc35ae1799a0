package io.conduit.persistence;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import org.flywaydb.core.Flyway;

/**
 * The local PostgreSQL for tests that run without Quarkus (the engine's contract and behaviour suites): one Vert.x
 * pool for the JVM, on a schema migrated once with the service's own migrations. Configured like the service:
 * CONDUIT_DB_HOST, CONDUIT_DB_PORT, CONDUIT_DB_NAME (default 127.0.0.1:5432/test), CONDUIT_DB_USERNAME.
 */
public final class TestDatabase {

    private static Pool pool;

    private TestDatabase() {
    }

    public static synchronized Pool pool() {
        if (pool == null) {
            String host = env("CONDUIT_DB_HOST", "127.0.0.1");
            int port = Integer.parseInt(env("CONDUIT_DB_PORT", "5432"));
            String db = env("CONDUIT_DB_NAME", "test");
            String user = env("CONDUIT_DB_USERNAME", "postgres");
            String password = env("CONDUIT_DB_PASSWORD", "");
            Flyway.configure().dataSource("jdbc:postgresql://" + host + ":" + port + "/" + db, user, password)
                    .locations("classpath:db/migration").load().migrate();
            pool = PgBuilder.pool()
                    .with(new PoolOptions().setMaxSize(8))
                    .connectingTo(new PgConnectOptions().setHost(host).setPort(port).setDatabase(db).setUser(user).setPassword(password))
                    .using(Vertx.vertx())
                    .build();
        }
        return pool;
    }

    public static PostgresCheckpointer checkpointer() {
        return new PostgresCheckpointer(pool());
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
