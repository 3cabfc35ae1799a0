package io.conduit.persistence;

import io.conduit.checkpoint.Checkpointer;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.mutiny.sqlclient.Pool;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/** Makes the one {@link Checkpointer} of the service, as configured, its writes measured ({@link MeteredCheckpointer}). */
@ApplicationScoped
public class CheckpointerProducer {

    private static final Logger LOG = Logger.getLogger(CheckpointerProducer.class);

    /** Why the packaged app will not start without a chosen store, and what to set. */
    static final String REFUSAL = "Checkpoints: no store chosen. Set conduit.checkpointer.store=postgres "
            + "(CONDUIT_CHECKPOINTER_STORE=postgres, with CONDUIT_DB_HOST, CONDUIT_DB_NAME, CONDUIT_DB_USERNAME, CONDUIT_DB_PASSWORD) "
            + "to keep threads, or conduit.checkpointer.store=memory to accept that every thread is lost when the service stops";

    /** At start-up, so the log says where threads live before the first request does. */
    @Produces
    @Singleton
    @Startup
    Checkpointer checkpointer(CheckpointStoreConfig config, Instance<Pool> pool, MeterRegistry registry) {
        if (config.chosen().isEmpty() && LaunchMode.current() == LaunchMode.NORMAL) {
            throw new IllegalStateException(REFUSAL);
        }
        if (config.store() == CheckpointStoreConfig.Store.POSTGRES) {
            LOG.info("Checkpoints: PostgreSQL (conduit.checkpointer.store=postgres)");
            return MeteredCheckpointer.postgres(pool.get(), registry);
        }
        LOG.warn("Checkpoints: IN MEMORY - every thread is lost when the service stops. "
                + "Set conduit.checkpointer.store=postgres (CONDUIT_CHECKPOINTER_STORE) to keep them.");
        return MeteredCheckpointer.memory(registry);
    }
}
