package io.conduit.runs.events;

import io.conduit.runs.ServingConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Comparator;
import java.util.List;

/** The threads' event logs, made once with every wire format the service has, and swept on a timer. */
@ApplicationScoped
public class EventLogBeans {

    private long sweepTimer = -1;

    @Produces
    @Singleton
    ThreadLogs threadLogs(ServingConfig config, Instance<EventView> formats) {
        // every transport's wire format (an EventView bean) is translated from the one log
        List<EventView> views = formats.stream().sorted(Comparator.comparing(EventView::name)).toList();
        return new ThreadLogs(views, config.maxRunLogBytes(), logBudget(config.maxLogBytes()), System::currentTimeMillis);
    }

    /**
     * What the event logs may keep in all: {@code conduit.runs.max-log-bytes}, but never more than an eighth of the
     * heap, so that the replay buffers of a small container (a 512 MB heap) cannot fill it: there, 256 MiB per log ran
     * the JVM into back-to-back full GCs and then out of memory.
     */
    static long logBudget(long configured) {
        return Math.min(configured, Runtime.getRuntime().maxMemory() / 8);
    }

    void start(@Observes StartupEvent e, ThreadLogs logs, Vertx vertx) {
        sweepTimer = vertx.setPeriodic(10_000, id -> logs.sweep(System.currentTimeMillis()));
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        vertx.cancelTimer(sweepTimer);
    }
}
