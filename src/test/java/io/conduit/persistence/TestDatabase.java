package io.conduit.persistence;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Properties;
import org.flywaydb.core.Flyway;

/**
 * The local PostgreSQL for tests that run without Quarkus (the engine's contract and behaviour suites): one Vert.x
 * pool for the JVM, on a schema migrated once with the service's own migrations. Configured like the service:
 * CONDUIT_DB_HOST, CONDUIT_DB_PORT, CONDUIT_DB_NAME (default 127.0.0.1:5432/test), CONDUIT_DB_USERNAME.
 */
public final class TestDatabase {

    private static Pool pool;
    private static final java.util.Map<String, Pool> schemaPools = new java.util.HashMap<>();

    private TestDatabase() {
    }

    public static synchronized Pool pool() {
        if (pool == null) {
            pool = open(env("CONDUIT_DB_NAME", "test"), 8);
        }
        return pool;
    }

    /** A listener for {@code NOTIFY}s on the configured database (not yet connected). */
    public static PgSubscriber subscriber(Vertx vertx) {
        return PgSubscriber.subscriber(vertx, connectOptions(env("CONDUIT_DB_NAME", "test")));
    }

    /** Where database {@code db} of the configured server is, and who connects. */
    private static PgConnectOptions connectOptions(String db) {
        return new PgConnectOptions().setHost(env("CONDUIT_DB_HOST", "127.0.0.1")).setPort(Integer.parseInt(env("CONDUIT_DB_PORT", "5432")))
                .setDatabase(db).setUser(user()).setPassword(password());
    }

    /** A pool on database {@code db} of the configured server, its schema migrated first. */
    public static Pool open(String db, int size) {
        return open(db, null, size);
    }

    /**
     * A client that pipelines statements on {@code size} connections of database {@code db} ({@code PgBuilder.client()},
     * up to {@code pipelining} statements on the wire per connection), its schema migrated first: for the benchmark.
     */
    public static io.vertx.mutiny.sqlclient.SqlClient pipelinedClient(String db, int size, int pipelining) {
        open(db, 1).close().await().indefinitely(); // migrates
        PgConnectOptions connect = connectOptions(db).setCachePreparedStatements(true).setPipeliningLimit(pipelining);
        return PgBuilder.client().with(new PoolOptions().setMaxSize(size)).connectingTo(connect).using(Vertx.vertx()).build();
    }

    /**
     * A pool on a schema of its own in the configured database, migrated first, for tests that must see only their
     * own rows (claiming a run, counting threads): nothing else (a Quarkus app of another test) writes there.
     */
    public static synchronized Pool schemaPool(String schema) {
        return schemaPools.computeIfAbsent(schema, s -> open(env("CONDUIT_DB_NAME", "test"), s, 8));
    }

    private static Pool open(String db, String schema, int size) {
        var flyway = Flyway.configure().dataSource(jdbcUrl(db), user(), password()).locations(migrationLocations());
        PgConnectOptions connect = connectOptions(db).setCachePreparedStatements(true);
        if (schema != null) {
            flyway.schemas(schema);
            connect.addProperty("search_path", schema);
        }
        flyway.load().migrate();
        return PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(size))
                .connectingTo(connect)
                .using(Vertx.vertx())
                .build();
    }

    /** The service's migrations, where it finds them: {@code quarkus.flyway.locations}, read from application.properties. */
    public static String[] migrationLocations() {
        Properties config = new Properties();
        try (InputStream in = TestDatabase.class.getResourceAsStream("/application.properties")) {
            config.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Arrays.stream(config.getProperty("quarkus.flyway.locations").split(","))
                .map(l -> "classpath:" + l.strip()).toArray(String[]::new);
    }

    public static String jdbcUrl(String db) {
        return "jdbc:postgresql://" + env("CONDUIT_DB_HOST", "127.0.0.1") + ":" + env("CONDUIT_DB_PORT", "5432") + "/" + db;
    }

    public static String user() {
        return env("CONDUIT_DB_USERNAME", "postgres");
    }

    public static String password() {
        return env("CONDUIT_DB_PASSWORD", "");
    }

    public static PostgresCheckpointer checkpointer() {
        return new PostgresCheckpointer(pool());
    }

    static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
