package io.conduit.persistence;

import io.quarkus.flyway.runtime.QuarkusPathLocationScanner;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.Location;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.resource.LoadableResource;
import org.flywaydb.core.internal.resolver.ChecksumCalculator;
import org.jboss.logging.Logger;

/**
 * Tells, over the reactive pool and without starting Flyway, whether the schema history already holds exactly the
 * packaged migrations: the same versions, each applied successfully with the checksum Flyway computes for its file.
 * Then a start needs no Flyway (its JDBC pool, connection and scan are about a quarter of the start-up thread's time).
 * Anything else (a new or changed file, a failed or baseline row, a repeatable migration, no history table, an error)
 * answers "not current", and Flyway runs as before: it migrates, or fails validation on a changed file.
 */
@ApplicationScoped
public class SchemaHistoryCheck {

    private static final Logger LOG = Logger.getLogger(SchemaHistoryCheck.class);
    private static final Pattern VERSIONED = Pattern.compile("V([0-9][0-9._]*)__.+\\.sql");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Instance<Pool> pool;
    private final List<String> locations;

    SchemaHistoryCheck(Instance<Pool> pool, @ConfigProperty(name = "quarkus.flyway.locations") List<String> locations) {
        this.pool = pool;
        this.locations = locations;
    }

    /** The version the history is at when it is current, or null when Flyway must run. Blocks: start-up only. */
    public String currentVersion() {
        try {
            Map<String, Integer> packaged = packaged();
            if (packaged == null || packaged.isEmpty()) {
                return null;
            }
            Map<String, Integer> applied = new HashMap<>();
            for (Row row : pool.get().query("select version, checksum, type, success from flyway_schema_history")
                    .execute().await().atMost(TIMEOUT)) {
                if (!row.getBoolean("success") || !"SQL".equals(row.getString("type")) || row.getString("version") == null) {
                    return null;
                }
                applied.put(MigrationVersion.fromVersion(row.getString("version")).getVersion(), row.getInteger("checksum"));
            }
            if (!applied.equals(packaged)) {
                return null;
            }
            return packaged.keySet().stream().map(MigrationVersion::fromVersion).max(MigrationVersion::compareTo)
                    .map(MigrationVersion::getVersion).orElse(null);
        } catch (RuntimeException e) {
            LOG.debugf("Schema history not read (%s): Flyway will check", e.getMessage());
            return null;
        }
    }

    /** Version to checksum of each packaged SQL migration; null if one is of a kind this check does not know. */
    private Map<String, Integer> packaged() {
        var scanner = new QuarkusPathLocationScanner(Flyway.configure(), locations.stream().map(Location::new).toList());
        Map<String, Integer> files = new HashMap<>();
        for (LoadableResource resource : scanner.scanForResources()) {
            String name = resource.getFilename();
            var m = VERSIONED.matcher(name);
            if (!m.matches()) {
                return null;
            }
            String version = MigrationVersion.fromVersion(m.group(1).replace('_', '.')).getVersion();
            if (files.put(version, ChecksumCalculator.calculate(resource)) != null) {
                return null;
            }
        }
        return files;
    }
}
