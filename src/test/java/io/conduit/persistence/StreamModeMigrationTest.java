package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.kernel.JsonCodec;
import io.conduit.runs.StreamMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * V9: a run stored while {@code "messages"} meant message tuples (before {@code messages} became LangGraph's
 * partial-message mode) still streams tuples when joined without a mode, on a schema of its own, dropped afterwards.
 */
class StreamModeMigrationTest {

    private final String schema = "stream_mode_" + UUID.randomUUID().toString().replace("-", "");

    @Test
    void runsStoredWithTheOldMessagesModeKeepTheirTuples() throws Exception {
        flyway().target("8").load().migrate();
        execute("INSERT INTO " + schema + ".conduit_runs (run_id, thread_id, status, multitask_strategy, kwargs, created_at, updated_at, not_before) VALUES "
                + "('old', 't', 'pending', 'reject', '{\"stream_mode\": [\"values\", \"messages\"]}', now(), now(), now()), "
                + "('plain', 't2', 'pending', 'reject', '{\"stream_mode\": [\"updates\"]}', now(), now(), now())");

        flyway().load().migrate();

        assertThat(StreamMode.parse(JsonCodec.MAPPER.readTree(streamModes("old")))).containsExactly(StreamMode.VALUES, StreamMode.MESSAGES_TUPLE);
        assertThat(StreamMode.parse(JsonCodec.MAPPER.readTree(streamModes("plain")))).containsExactly(StreamMode.UPDATES);
    }

    private FluentConfiguration flyway() {
        return Flyway.configure().dataSource(TestDatabase.jdbcUrl(env()), TestDatabase.user(), TestDatabase.password())
                .schemas(schema).locations(TestDatabase.migrationLocations());
    }

    private String streamModes(String run) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT kwargs -> 'stream_mode' FROM " + schema + ".conduit_runs WHERE run_id = '" + run + "'")) {
            assertThat(r.next()).isTrue();
            return r.getString(1);
        }
    }

    private static Connection connect() throws SQLException {
        return DriverManager.getConnection(TestDatabase.jdbcUrl(env()), TestDatabase.user(), TestDatabase.password());
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static String env() {
        return TestDatabase.env("CONDUIT_DB_NAME", "test");
    }

    @AfterEach
    void dropSchema() throws SQLException {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
}
