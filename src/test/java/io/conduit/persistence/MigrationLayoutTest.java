package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the migrations live (quarkus.flyway.locations): the service's in db/migration, each blueprint's in
 * db/blueprints/&lt;name&gt;. The tutor's V4 was in db/migration until it moved beside the tutor; the databases that
 * applied it there must keep migrating, which they do while its version, description and checksum stay as recorded.
 * Each test migrates a schema of its own, dropped afterwards.
 */
class MigrationLayoutTest {

    /** What every database migrated before the move recorded for V4 (flyway_schema_history.checksum). */
    private static final int V4_CHECKSUM = -1387837996;

    private final List<String> schemas = new ArrayList<>();

    @Test
    void theTutorsMigrationIsFoundBesideTheTutorAsDatabasesRecordedIt() {
        MigrationInfo[] pending = flyway(freshSchema(), TestDatabase.migrationLocations()).load().info().pending();

        assertThat(pending).extracting(i -> i.getVersion().getVersion()).startsWith("1", "2", "3", "4", "5", "6");
        MigrationInfo v4 = Arrays.stream(pending).filter(i -> i.getVersion().getVersion().equals("4")).findFirst().orElseThrow();
        assertThat(v4.getScript()).isEqualTo("tutor/V4__course_guides.sql");
        assertThat(v4.getDescription()).isEqualTo("course guides");
        assertThat(v4.getChecksum()).isEqualTo(V4_CHECKSUM);
    }

    @Test
    void aDatabaseThatRanTheTutorsMigrationInTheServicesFolderMigratesOn(@TempDir Path before) throws Exception {
        // the layout before the move: every migration in one folder; a database of that time, migrated up to V4
        copySql(classpathFolder("db/migration"), before);
        copySql(classpathFolder("db/blueprints/tutor"), before);
        String schema = freshSchema();
        flyway(schema, "filesystem:" + before).target("4").load().migrate();

        // validates first, as the service does (validateOnMigrate): a V4 not found, or changed, fails here
        MigrateResult result = flyway(schema, TestDatabase.migrationLocations()).load().migrate();

        assertThat(result.migrations).extracting(m -> m.version).contains("5", "6").doesNotContain("1", "2", "3", "4");
        assertThat(flyway(schema, TestDatabase.migrationLocations()).load().validateWithResult().validationSuccessful).isTrue();
    }

    private String freshSchema() {
        String schema = "migration_layout_" + UUID.randomUUID().toString().replace("-", "");
        schemas.add(schema);
        return schema;
    }

    private static FluentConfiguration flyway(String schema, String... locations) {
        return Flyway.configure().dataSource(TestDatabase.jdbcUrl(env()), TestDatabase.user(), TestDatabase.password())
                .schemas(schema).locations(locations);
    }

    private static String env() {
        return TestDatabase.env("CONDUIT_DB_NAME", "test");
    }

    private static Path classpathFolder(String folder) throws URISyntaxException {
        return Path.of(MigrationLayoutTest.class.getResource("/" + folder).toURI());
    }

    private static void copySql(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".sql")).toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(TestDatabase.jdbcUrl(env()), TestDatabase.user(), TestDatabase.password());
             Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @AfterEach
    void dropSchemas() throws SQLException {
        for (String schema : schemas) {
            execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }
}
