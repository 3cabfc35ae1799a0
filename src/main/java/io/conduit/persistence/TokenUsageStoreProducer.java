package io.conduit.persistence;

import io.conduit.runs.TokenUsageStore;
import io.conduit.runs.memory.InMemoryTokenUsageStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Token usage lives where threads do ({@code conduit.checkpointer.store}): every replica reads the same budgets. */
@ApplicationScoped
public class TokenUsageStoreProducer {

    private final CheckpointStoreConfig config;
    private final Instance<Pool> pool;
    private final SchemaMigration schema;

    TokenUsageStoreProducer(CheckpointStoreConfig config, Instance<Pool> pool, SchemaMigration schema) {
        this.config = config;
        this.pool = pool;
        this.schema = schema;
    }

    @Produces
    @Singleton
    TokenUsageStore tokenUsageStore() {
        if (config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return new InMemoryTokenUsageStore();
        }
        schema.ensureMigrated();
        return new PostgresTokenUsageStore(pool.get());
    }
}
