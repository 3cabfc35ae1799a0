package io.conduit.telemetry;

import io.conduit.runs.PrincipalLimit;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Requests refused by a caller's limits, {@code conduit.limit.refusals} tagged {@code limit} (requests_per_minute,
 * concurrent_runs, tokens_per_day): read from {@link PrincipalLimit}'s counts when Prometheus scrapes.
 */
@ApplicationScoped
public class LimitRefusalMeters {

    void start(@Observes StartupEvent e, MeterRegistry registry) {
        for (PrincipalLimit limit : PrincipalLimit.values()) {
            FunctionCounter.builder("conduit.limit.refusals", limit, PrincipalLimit::refusals)
                    .description("Requests refused by a caller's limits (conduit.limits.per-principal.*), by limit")
                    .tag("limit", limit.tag()).register(registry);
        }
    }
}
