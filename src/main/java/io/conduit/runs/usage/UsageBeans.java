package io.conduit.runs.usage;

import io.conduit.runs.Chore;
import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.TokenUsageStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/**
 * The daily token counts, made once, and their housekeeping: days older than a month are forgotten hourly, a chore of
 * the cluster's housekeeper.
 */
@ApplicationScoped
public class UsageBeans {

    /** Days of usage kept before today, for an operator to read in the table; budgets read only today's. */
    static final int KEEP_DAYS = 31;

    @Produces
    @Singleton
    DailyTokens dailyTokens(TokenUsageStore store) {
        return new DailyTokens(store, Clock.systemUTC());
    }

    /** Nothing is counted without a daily budget, so there is nothing to forget then. */
    @Produces
    @Singleton
    Chore oldTokenCounts(DailyTokens tokens, PrincipalLimitsConfig config) {
        return new Chore("token counts older than " + KEEP_DAYS + " days", Duration.ofHours(1),
                () -> config.tokensPerDay() > 0 ? tokens.forgetOlderThan(KEEP_DAYS) : Uni.createFrom().item(0));
    }
}
