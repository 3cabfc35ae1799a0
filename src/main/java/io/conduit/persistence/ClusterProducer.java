package io.conduit.persistence;

import io.conduit.runs.RunStops;
import io.conduit.runs.cluster.FrameExchange;
import io.quarkus.runtime.ShutdownEvent;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * What replicas on one database say to each other, when the stores are in PostgreSQL (nothing otherwise: one process
 * has nobody to tell): the frame exchange and the stops. Their wake-ups come on one connection of their own, outside
 * the pool, that reconnects after a database restart.
 */
@ApplicationScoped
public class ClusterProducer {

    private static final Logger LOG = Logger.getLogger(ClusterProducer.class);

    private final CheckpointStoreConfig config;
    private final Instance<Pool> pool;
    private final SchemaMigration schema;
    private final Vertx vertx;
    private final String url;
    private final Optional<String> user;
    private final Optional<String> password;
    private PgSubscriber subscriber;

    ClusterProducer(CheckpointStoreConfig config, Instance<Pool> pool, SchemaMigration schema, Vertx vertx,
                    @ConfigProperty(name = "quarkus.datasource.reactive.url") String url,
                    @ConfigProperty(name = "quarkus.datasource.username") Optional<String> user,
                    @ConfigProperty(name = "quarkus.datasource.password") Optional<String> password) {
        this.config = config;
        this.pool = pool;
        this.schema = schema;
        this.vertx = vertx;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    @Produces
    @Dependent
    FrameExchange exchange() {
        return postgres() ? new PostgresFrameExchange(migratedPool(), subscriber()) : null;
    }

    @Produces
    @Dependent
    RunStops stops() {
        return postgres() ? new PostgresRunStops(migratedPool(), subscriber()) : null;
    }

    private boolean postgres() {
        return config.store() == CheckpointStoreConfig.Store.POSTGRES;
    }

    private Pool migratedPool() {
        schema.ensureMigrated();
        return pool.get();
    }

    /** One listening connection for every channel, connected at first use. */
    private synchronized PgSubscriber subscriber() {
        if (subscriber == null) {
            PgConnectOptions options = PgConnectOptions.fromUri(url.startsWith("vertx-reactive:") ? url.substring(15) : url)
                    .setUser(user.orElse("postgres")).setPassword(password.orElse(""));
            subscriber = PgSubscriber.subscriber(vertx, options).reconnectPolicy(retries -> 500L);
            connect(subscriber);
        }
        return subscriber;
    }

    /** Until it is connected: the reconnect policy covers only a connection lost after it was made. */
    private void connect(PgSubscriber s) {
        s.connect().subscribe().with(ok -> { }, f -> {
            LOG.warnf("Not listening to the other replicas yet (again in a second): %s", f.getMessage());
            if (!s.closed()) {
                vertx.setTimer(1_000, id -> connect(s));
            }
        });
    }

    void stop(@Observes ShutdownEvent e) {
        synchronized (this) {
            if (subscriber != null) {
                subscriber.close().subscribe().with(ok -> { }, f -> { });
            }
        }
    }
}
