package io.conduit.persistence;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
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

    void migrate(@Observes StartupEvent event, CheckpointStoreConfig config, Instance<Flyway> flyway) {
        if (config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return;
        }
        var result = flyway.get().migrate();
        LOG.infof("Database schema at version %s (%d migrations applied now)",
                result.targetSchemaVersion != null ? result.targetSchemaVersion : flyway.get().info().current().getVersion(),
                result.migrationsExecuted);
    }
}
