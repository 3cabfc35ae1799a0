package io.conduit.persistence;

import io.conduit.runs.Chore;
import io.conduit.store.InMemoryStore;
import io.conduit.store.Store;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/**
 * The long-term store lives where checkpoints do (in memory, or in Postgres); its lapsed items are swept every minute,
 * a chore of the cluster's housekeeper.
 */
@ApplicationScoped
public class StoreProducer {

    @Produces
    @Singleton
    Store store(CheckpointStoreConfig config, Instance<Pool> pool) {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES ? new PostgresStore(pool.get(), Clock.systemUTC()) : new InMemoryStore(Clock.systemUTC());
    }

    @Produces
    @Singleton
    Chore lapsedItems(Store store) {
        return new Chore("the store's lapsed items", Duration.ofMinutes(1), store::sweep);
    }
}
