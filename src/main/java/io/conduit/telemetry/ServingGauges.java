package io.conduit.telemetry;

import io.conduit.runs.delivery.SlowConsumer;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.conduit.runs.events.ThreadLogs;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.TimeUnit;

/**
 * What the serving layer holds, read when Prometheus scrapes (nothing on the request path): open streams by transport,
 * slow-consumer disconnects, the event logs' size; and the event loop's lag, from a timer that measures how late it fires.
 */
@ApplicationScoped
public class ServingGauges {

    /** How often the event-loop lag is sampled: often enough to see a stall, rarely enough to cost nothing. */
    private static final long LAG_PERIOD_MS = 1000;

    private long lagTimer = -1;

    void start(@Observes StartupEvent e, MeterRegistry registry, StreamPermits permits, ThreadLogs logs, Vertx vertx) {
        // by transport only: Prometheus wants one set of labels per name, and sum(conduit_streams_open) is the total
        for (StreamTransport t : StreamTransport.values()) {
            Gauge.builder("conduit.streams.open", permits, p -> p.open(t)).tag("transport", t.label())
                    .description("Streaming connections open (SSE and WebSocket), by transport").register(registry);
        }
        Gauge.builder("conduit.streams.max", permits, StreamPermits::max)
                .description("Streaming connections this replica accepts (conduit.limits.max-streams)").register(registry);
        FunctionCounter.builder("conduit.slow.consumer.disconnects", SlowConsumer.class, c -> SlowConsumer.disconnects())
                .description("Subscribers disconnected for reading too slowly").register(registry);
        Gauge.builder("conduit.event.log.bytes", logs, ThreadLogs::bytes).baseUnit("bytes")
                .description("Bytes the threads' event logs hold in memory").register(registry);
        Timer lag = Timer.builder("conduit.event.loop.lag").description("How late a timer on an event loop fires")
                .serviceLevelObjectives(RunMeters.seconds(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5)).register(registry);
        long[] due = {System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LAG_PERIOD_MS)};
        lagTimer = vertx.setPeriodic(LAG_PERIOD_MS, id -> {
            long now = System.nanoTime();
            lag.record(Math.max(0, now - due[0]), TimeUnit.NANOSECONDS);
            due[0] = now + TimeUnit.MILLISECONDS.toNanos(LAG_PERIOD_MS);
        });
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        if (lagTimer >= 0) {
            vertx.cancelTimer(lagTimer);
        }
    }
}
