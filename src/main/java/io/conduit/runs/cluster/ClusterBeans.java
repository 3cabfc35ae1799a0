package io.conduit.runs.cluster;

import io.conduit.runs.events.ThreadLogs;
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
 * the relay and the watcher, the wake-ups, and one timer that renews watches, reloads them, and drops old frames.
 */
@ApplicationScoped
public class ClusterBeans {

    private static final Logger LOG = Logger.getLogger(ClusterBeans.class);

    private long timer = -1;

    void start(@Observes StartupEvent e, ClusterConfig config, Instance<FrameExchange> exchanges, ThreadLogs logs, Vertx vertx) {
        FrameExchange exchange = exchanges.isResolvable() ? exchanges.get() : null;
        if (exchange == null || !config.events()) {
            return;
        }
        String origin = UUID.randomUUID().toString();
        FrameBatcher batcher = new FrameBatcher(exchange, (ms, task) -> vertx.setTimer(Math.max(1, ms), id -> task.run()),
                config.frameLinger().toMillis(), config.maxBatch(), n -> { });
        FrameRelay relay = new FrameRelay(logs, batcher, origin);
        RemoteFrames remote = new RemoteFrames(logs, exchange, origin, config.watchTtl(), System::currentTimeMillis);
        exchange.onAppended(remote::appended);
        exchange.onWatch(relay::watch);
        exchange.onClaimed(c -> remote.claimedElsewhere(c.threadId(), c.runId(), c.origin()));
        logs.link(new SharedLogs(relay, remote));
        timer = vertx.setPeriodic(Math.max(100, config.watchTtl().toMillis() / 3), id -> {
            remote.renew();
            exchange.watches().subscribe().with(relay::reload, f -> LOG.warnf("Watches were not read: %s", f.getMessage()));
            exchange.expire(logs.retention()).subscribe().with(n -> { }, f -> { });
        });
        LOG.infof("Runs' frames are shared with the other replicas through the database (process %s)", origin);
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }
}
