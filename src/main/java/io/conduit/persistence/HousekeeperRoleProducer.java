package io.conduit.persistence;

import io.conduit.runs.HousekeeperRole;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The housekeeper's role is where the stores are ({@code conduit.checkpointer.store}): on Postgres an advisory lock that
 * one replica holds, so the cluster's chores are done once however many replicas share the database; in memory the
 * process is alone and always holds it.
 */
@ApplicationScoped
public class HousekeeperRoleProducer {

    @Produces
    @Singleton
    HousekeeperRole housekeeperRole(CheckpointStoreConfig config, Instance<Pool> pool) {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES ? new PostgresHousekeeperRole(pool.get()) : HousekeeperRole.ALONE;
    }
}
