package io.conduit.persistence;

import io.conduit.auth.ApiKeyStore;
import io.conduit.auth.InMemoryApiKeyStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** API keys live where threads do ({@code conduit.checkpointer.store}): a key outlives a restart when its threads do. */
@ApplicationScoped
public class ApiKeyStoreProducer {

    private final CheckpointStoreConfig config;
    private final Instance<Pool> pool;
    private final SchemaMigration schema;

    ApiKeyStoreProducer(CheckpointStoreConfig config, Instance<Pool> pool, SchemaMigration schema) {
        this.config = config;
        this.pool = pool;
        this.schema = schema;
    }

    @Produces
    @Singleton
    ApiKeyStore apiKeyStore() {
        if (config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return new InMemoryApiKeyStore();
        }
        schema.ensureMigrated();
        return new PostgresApiKeyStore(pool.get());
    }
}
