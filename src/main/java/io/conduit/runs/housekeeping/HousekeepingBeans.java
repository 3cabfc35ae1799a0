package io.conduit.runs.housekeeping;

import io.conduit.runs.Chore;
import io.conduit.runs.HousekeeperRole;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import org.jboss.logging.Logger;

/**
 * The housekeeping, made once, with every {@link Chore} bean, on one Vert.x periodic timer (its first tick one interval
 * after the start, as the chores' own timers were); the role is given up as the application stops, so that another
 * replica takes it at its next tick rather than when this one's connection is seen to be gone.
 */
@ApplicationScoped
public class HousekeepingBeans {

    private static final Logger LOG = Logger.getLogger(HousekeepingBeans.class);
    private long timer = -1;

    @Produces
    @Singleton
    ClusterHousekeeping housekeeping(HousekeeperRole role, Instance<Chore> chores, HousekeepingConfig config) {
        return new ClusterHousekeeping(role, chores.stream().toList(), Clock.systemUTC(), config.interval());
    }

    void start(@Observes StartupEvent e, ClusterHousekeeping housekeeping, HousekeepingConfig config, Vertx vertx) {
        timer = vertx.setPeriodic(Math.max(100, config.interval().toMillis()), id -> housekeeping.tick().subscribe().with(done -> { }));
    }

    void stop(@Observes ShutdownEvent e, HousekeeperRole role, Vertx vertx) {
        if (timer != -1) {
            vertx.cancelTimer(timer);
        }
        try {
            role.release().await().atMost(Duration.ofSeconds(5));
        } catch (RuntimeException f) {
            LOG.debugf("Giving up the housekeeper's role failed (%s); the database ends it with the connection", f.toString());
        }
    }
}
