package io.conduit.persistence;

import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.interceptor.Interceptor;
import org.flywaydb.core.Flyway;
import org.jboss.logging.Logger;

/**
 * Brings the database schema up to date at start-up, when checkpoints go to Postgres. Flyway (over a two-connection
 * JDBC pool used for nothing else) rather than a home-made runner: checksums, history and locking across replicas
 * starting together come with it. Runs before the service takes traffic, on the start-up thread.
 */
@ApplicationScoped
public class SchemaMigration {

    private static final Logger LOG = Logger.getLogger(SchemaMigration.class);

    private final CheckpointStoreConfig config;
    private final Instance<Flyway> flyway;
    private final SchemaHistoryCheck history;
    private boolean done;

    SchemaMigration(CheckpointStoreConfig config, Instance<Flyway> flyway, SchemaHistoryCheck history) {
        this.config = config;
        this.flyway = flyway;
        this.history = history;
    }

    /** Before the other start-up observers (@Startup beans among them), which may already use the stores. */
    void migrate(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) StartupEvent event) {
        ensureMigrated();
    }

    /**
     * Migrates once, if the stores are in Postgres; later calls return at once. The Postgres stores' producers call
     * it too, so that a store made before the start-up event still finds its tables. Blocks: start-up thread only.
     */
    public synchronized void ensureMigrated() {
        if (done || config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return;
        }
        String current = history.currentVersion();
        if (current != null) {
            LOG.infof("Database schema at version %s (its history holds every packaged migration; Flyway not started)", current);
            done = true;
            return;
        }
        var result = flyway.get().migrate();
        // The version from the result: Flyway's info() would scan and resolve every migration a second time (about
        // 60 ms of start-up on a quiet machine, for a log line).
        LOG.infof("Database schema at version %s (%d migrations applied now)",
                result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion,
                result.migrationsExecuted);
        done = true;
    }
}
