package io.conduit.graph;

import static io.conduit.graph.Runs.finished;
import static io.conduit.graph.Runs.history;
import static io.conduit.graph.Runs.newThread;
import static io.conduit.graph.Runs.run;
import static io.conduit.graph.Runs.state;
import static io.conduit.graph.StateGraph.END;
import static io.conduit.graph.StateGraph.START;
import static io.conduit.graph.TestMessages.ids;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.graph.TestMessages.Item;
import io.conduit.graph.TestMessages.Msg;
import io.conduit.persistence.PostgresCheckpointer;
import io.conduit.persistence.TestDatabase;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Runs on Postgres whose connections are terminated under them ({@code pg_terminate_backend}), as when the server
 * restarts or an administrator steps in. The store's own pool gets an application name, so only its connections
 * are terminated and other tests sharing the database are left alone.
 */
class ConnectionLossTest {

    private static final String APP = "conduit-connection-loss-" + UUID.randomUUID().toString().substring(0, 8);
    private static final MessagesChannel<Item> MSGS = TestMessages.messages();
    private static final LastValueChannel<Integer> COUNT = TestMessages.counter("count");
    private static final int STEPS = 4;

    private static Pool pool;

    @BeforeAll
    static void openPool() {
        TestDatabase.pool(); // migrates the schema
        pool = PgBuilder.pool()
                .with(new PoolOptions().setMaxSize(2))
                .connectingTo(new PgConnectOptions().setHost(env("CONDUIT_DB_HOST", "127.0.0.1"))
                        .setPort(Integer.parseInt(env("CONDUIT_DB_PORT", "5432"))).setDatabase(db())
                        .setUser(TestDatabase.user()).setPassword(TestDatabase.password())
                        .addProperty("application_name", APP))
                .using(Vertx.vertx())
                .build();
    }

    @AfterAll
    static void closePool() {
        pool.close().await().indefinitely();
    }

    /** A loop of {@link #STEPS} steps; in each, {@code disrupt} runs before the node returns. */
    private static CompiledGraph loop(Durability durability, java.util.function.BiConsumer<String, Integer> disrupt) {
        return StateGraph.of(StateSchema.of(MSGS, COUNT))
                .node("step", (s, ctx) -> Uni.createFrom().item(() -> {
                    int n = s.get(COUNT) + 1;
                    disrupt.accept(ctx.threadId(), n);
                    return Update.of(COUNT, n).set(MSGS, Msg.ai("m" + n, "step " + n));
                }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())) // JDBC blocks: not on an event loop
                .edge(START, "step")
                .route("step", s -> Route.to(s.get(COUNT) < STEPS ? "step" : END), "step", END)
                .compile(GraphOptions.with(new PostgresCheckpointer(pool)));
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void connectionsTerminatedBetweenStepsDoNotFailTheRun(Durability durability) {
        CompiledGraph graph = loop(durability, (thread, n) -> terminate());
        assertFinishedAndReadable(graph, newThread(), durability);
    }

    /**
     * The deterministic case: the checkpoint write is on the wire, waiting for a row lock this test holds, when its
     * connection is terminated. Without a retry the run fails with persistence_failed.
     */
    @ParameterizedTest
    @EnumSource(Durability.class)
    void aCheckpointWriteWhoseConnectionIsTerminatedMidStatementIsRepeated(Durability durability) {
        CompiledGraph graph = loop(durability, (thread, n) -> {
            if (n == 2) {
                terminateTheNextWriteInFlight(thread);
            }
        });
        assertFinishedAndReadable(graph, newThread(), durability);
    }

    private static void assertFinishedAndReadable(CompiledGraph graph, String thread, Durability durability) {
        List<GraphEvent> events = run(graph, RunRequest.on(thread).durability(durability).input(Update.of(MSGS, Msg.user("u", "go"))));

        State end = finished(events).state();
        assertThat(end.get(COUNT)).isEqualTo(STEPS);
        terminate();
        CompiledGraph fresh = loop(durability, (t, n) -> { });
        StateSnapshot s = state(fresh, thread);
        assertThat(s.values().get(COUNT)).isEqualTo(STEPS);
        assertThat(ids(s.values().get(MSGS))).containsExactly("u", "m1", "m2", "m3", "m4");
        assertThat(history(fresh, thread)).hasSize(STEPS + 1);
    }

    /**
     * Locks the thread's row, so that the next checkpoint write (a compare-and-set on it) waits; once the store's
     * backend is seen waiting, terminates it and releases the lock. Runs in the background: the write comes after
     * the node returns.
     */
    private static void terminateTheNextWriteInFlight(String thread) {
        try {
            Connection c = DriverManager.getConnection(TestDatabase.jdbcUrl(db()), TestDatabase.user(), TestDatabase.password());
            c.setAutoCommit(false);
            try (PreparedStatement lock = c.prepareStatement("SELECT 1 FROM conduit_threads WHERE thread_id = ? AND ns = '' FOR UPDATE")) {
                lock.setString(1, thread);
                for (int i = 0; i < 100; i++) { // in ASYNC mode the thread's first checkpoint may still be on its way
                    try (ResultSet rs = lock.executeQuery()) {
                        if (rs.next()) {
                            break;
                        }
                    }
                    Thread.sleep(20);
                }
            }
            Thread.ofVirtual().start(() -> {
                try (c) {
                    waitForABlockedWrite();
                    terminate();
                    c.rollback();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
        } catch (SQLException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void waitForABlockedWrite() throws SQLException, InterruptedException {
        try (Connection c = DriverManager.getConnection(TestDatabase.jdbcUrl(db()), TestDatabase.user(), TestDatabase.password());
             PreparedStatement q = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE application_name = ? AND wait_event_type = 'Lock'")) {
            q.setString(1, APP);
            for (int i = 0; i < 250; i++) {
                try (ResultSet rs = q.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no checkpoint write waited for the lock within 5 s");
        }
    }

    /** Terminates every backend of the store's pool and waits until they are gone. */
    private static void terminate() {
        try (Connection c = DriverManager.getConnection(TestDatabase.jdbcUrl(db()), TestDatabase.user(), TestDatabase.password());
             Statement st = c.createStatement()) {
            st.execute("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() "
                    + "AND pid <> pg_backend_pid() AND application_name = '" + APP + "'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String db() {
        String db = System.getenv("CONDUIT_DB_NAME");
        return db == null || db.isBlank() ? "test" : db;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
