package io.conduit.persistence;

import io.conduit.store.InMemoryStore;
import io.conduit.store.Store;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import org.jboss.logging.Logger;

/** The long-term store lives where checkpoints do (in memory, or in Postgres); lapsed items are swept every minute. */
@ApplicationScoped
public class StoreProducer {

    private static final Logger LOG = Logger.getLogger(StoreProducer.class);
    private long sweepTimer = -1;

    @Produces
    @Singleton
    Store store(CheckpointStoreConfig config, Instance<Pool> pool) {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES ? new PostgresStore(pool.get(), Clock.systemUTC()) : new InMemoryStore(Clock.systemUTC());
    }

    void start(@Observes StartupEvent e, Store store, Vertx vertx) {
        sweepTimer = vertx.setPeriodic(60_000, id -> store.sweep().subscribe().with(n -> { },
                f -> LOG.warnf("Sweeping the store's lapsed items failed: %s", f.toString())));
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        vertx.cancelTimer(sweepTimer);
    }
}
