package io.conduit.persistence;

import io.conduit.agent.port.UserMemory;
import io.conduit.agent.port.InMemoryUserMemory;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** User memory lives where checkpoints do: in memory, or in Postgres. */
@ApplicationScoped
public class UserMemoryProducer {

    @Produces
    @Singleton
    UserMemory userMemory(CheckpointStoreConfig config, Instance<Pool> pool) {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES ? new PostgresUserMemory(pool.get()) : new InMemoryUserMemory();
    }
}
