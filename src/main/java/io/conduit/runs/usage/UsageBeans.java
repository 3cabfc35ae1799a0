package io.conduit.runs.usage;

import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.TokenUsageStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** The daily token counts, made once, and their housekeeping: days older than a month are forgotten, hourly. */
@ApplicationScoped
public class UsageBeans {

    /** Days of usage kept before today, for an operator to read in the table; budgets read only today's. */
    static final int KEEP_DAYS = 31;

    private long forgetTimer = -1;

    @Produces
    @Singleton
    DailyTokens dailyTokens(TokenUsageStore store) {
        return new DailyTokens(store, Clock.systemUTC());
    }

    void start(@Observes StartupEvent e, DailyTokens tokens, PrincipalLimitsConfig config, Vertx vertx) {
        if (config.tokensPerDay() > 0) {
            forgetTimer = vertx.setPeriodic(1_000, 3_600_000, id -> tokens.forgetOlderThan(KEEP_DAYS).subscribe().with(n -> { }, f -> { }));
        }
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        if (forgetTimer >= 0) {
            vertx.cancelTimer(forgetTimer);
        }
    }
}
