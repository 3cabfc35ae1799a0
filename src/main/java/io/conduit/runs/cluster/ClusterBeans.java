package io.conduit.runs.cluster;

import io.conduit.runs.Chore;
import io.conduit.runs.RunStore;
import io.conduit.runs.events.ThreadLogs;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Ties the threads' logs to the other replicas when a {@link FrameExchange} exists (the stores are in PostgreSQL):
 * the relay and the watcher, the wake-ups, and one timer that renews watches and reloads them; old frames go in a {@link Chore}, once per cluster.
 */
@ApplicationScoped
public class ClusterBeans {

    private static final Logger LOG = Logger.getLogger(ClusterBeans.class);

    private long timer = -1;
    private volatile FrameExchange shared;
    private volatile java.time.Duration retention = java.time.Duration.ZERO;

    void start(@Observes StartupEvent e, ClusterConfig config, Instance<FrameExchange> exchanges, ThreadLogs logs, RunStore runs,
               Vertx vertx) {
        FrameExchange exchange = exchanges.isResolvable() ? exchanges.get() : null;
        if (exchange == null || !config.events()) {
            return;
        }
        shared = exchange;
        retention = logs.retention();
        String origin = UUID.randomUUID().toString();
        // the linger's timers on a context of their own: one set from a request's context would be cancelled when the
        // HTTP server is undeployed at shutdown, while the drain still relays
        io.vertx.mutiny.core.Context timers = vertx.getOrCreateContext();
        FrameBatcher batcher = new FrameBatcher(exchange,
                (ms, task) -> timers.runOnContext(() -> {
                    if (ms <= 0) {
                        task.run(); // no linger: what the loop queued meanwhile, and what comes during the write, go together
                    } else {
                        vertx.setTimer(ms, id -> task.run());
                    }
                }),
                config.frameLinger().toMillis(), config.maxBatch(), n -> { });
        FrameRelay relay = new FrameRelay(logs, batcher, origin);
        RemoteFrames remote = new RemoteFrames(logs, exchange, origin, config.watchTtl(), System::currentTimeMillis);
        exchange.onResumed(remote::resumed);
        exchange.onAppended(remote::appended);
        exchange.onWatch(relay::watch);
        exchange.onClaimed(c -> remote.claimedElsewhere(c.threadId(), c.runId(), c.origin()));
        logs.link(new SharedLogs(relay, remote));
        RelayedRunEnds ends = new RelayedRunEnds(logs, runs, System::currentTimeMillis, config.relayWait());
        timer = vertx.setPeriodic(Math.max(100, config.watchTtl().toMillis() / 3), id -> {
            remote.renew();
            ends.check();
            long mark = relay.mark();
            exchange.watches().subscribe().with(w -> relay.reload(w, mark), f -> LOG.warnf("Watches were not read: %s", f.getMessage()));
        });
        LOG.infof("Runs' frames are shared with the other replicas through the database (process %s)", origin);
    }

    /** Relayed frames past the formats' replay retention, and lapsed watches: once per cluster. */
    @Produces
    @Singleton
    Chore oldRelayedFrames() {
        return new Chore("relayed frames past their retention", java.time.Duration.ofMinutes(1), () -> {
            FrameExchange exchange = shared;
            return exchange == null ? Uni.createFrom().item(0) : exchange.expire(retention);
        });
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
