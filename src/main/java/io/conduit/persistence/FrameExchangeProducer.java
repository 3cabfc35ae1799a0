package io.conduit.persistence;

import io.conduit.runs.cluster.FrameExchange;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The replicas' frame exchange, when the stores are in PostgreSQL (none otherwise: one process has nothing to share).
 * Its wake-ups come on a connection of their own, outside the pool, that reconnects after a database restart.
 */
@ApplicationScoped
public class FrameExchangeProducer {

    private static final Logger LOG = Logger.getLogger(FrameExchangeProducer.class);

    private PgSubscriber subscriber;

    @Produces
    @Dependent
    FrameExchange exchange(CheckpointStoreConfig config, Instance<Pool> pool, SchemaMigration schema, Vertx vertx,
                           @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                           @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                           @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        if (config.store() != CheckpointStoreConfig.Store.POSTGRES) {
            return null;
        }
        schema.ensureMigrated();
        PgConnectOptions options = PgConnectOptions.fromUri(url.startsWith("vertx-reactive:") ? url.substring(15) : url)
                .setUser(user.orElse("postgres")).setPassword(password.orElse(""));
        subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 500L);
        PostgresFrameExchange exchange = new PostgresFrameExchange(pool.get(), subscriber);
        subscriber.connect().subscribe().with(ok -> { },
                f -> LOG.warnf("Not listening for the other replicas' frames yet: %s", f.getMessage()));
        return exchange;
    }

    void stop(@Observes ShutdownEvent e) {
        if (subscriber != null) {
            subscriber.close().subscribe().with(ok -> { }, f -> { });
        }
    }
}
