package io.conduit.persistence;

import io.conduit.runs.AssistantStore;
import io.conduit.runs.CronStore;
import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.memory.InMemoryAssistantStore;
import io.conduit.runs.memory.InMemoryCronStore;
import io.conduit.runs.memory.InMemoryRunStore;
import io.conduit.runs.memory.InMemoryThreadStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Runs, threads and assistants live where checkpoints do ({@code conduit.checkpointer.store}): a thread's record
 * and its checkpoints must survive (or not) together.
 */
@ApplicationScoped
public class RunStoresProducer {

    private final CheckpointStoreConfig config;
    private final Instance<Pool> pool;
    private final SchemaMigration schema;

    RunStoresProducer(CheckpointStoreConfig config, Instance<Pool> pool, SchemaMigration schema) {
        this.config = config;
        this.pool = pool;
        this.schema = schema;
    }

    @Produces
    @Singleton
    RunStore runStore() {
        return postgres() ? new PostgresRunStore(migratedPool()) : new InMemoryRunStore();
    }

    @Produces
    @Singleton
    ThreadStore threadStore() {
        return postgres() ? new PostgresThreadStore(migratedPool()) : new InMemoryThreadStore();
    }

    @Produces
    @Singleton
    AssistantStore assistantStore() {
        return postgres() ? new PostgresAssistantStore(migratedPool()) : new InMemoryAssistantStore();
    }

    /** Crons live with threads: a thread's crons are deleted with it, and every replica schedules the same ones. */
    @Produces
    @Singleton
    CronStore cronStore() {
        return postgres() ? new PostgresCronStore(migratedPool()) : new InMemoryCronStore();
    }

    private boolean postgres() {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES;
    }

    /** The V3 tables exist before a store can be used, even when it is made before the start-up event. */
    private Pool migratedPool() {
        schema.ensureMigrated();
        return pool.get();
    }
}
