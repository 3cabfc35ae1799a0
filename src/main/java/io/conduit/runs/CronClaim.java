package io.conduit.runs;

import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * One due cron's claim, as every store makes it: {@code cron} as it is to be stored, {@code runs} whether its tick is
 * to run. A stored schedule or time zone that no longer computes (a zone gone after a tzdata update, a row written by
 * hand) must not fail the whole claim: the stores claim in batches ordered by next tick, so one such row would fail
 * every poll and stop every cron. It is stored with no next tick instead (a WARN says why) and its tick is not run.
 */
public record CronClaim(Cron cron, boolean runs) {

    private static final Logger LOG = Logger.getLogger(CronClaim.class);

    /** {@code due} claimed at {@code now} ({@link Cron#claimed}), or, when its schedule cannot be computed, stopped. */
    public static CronClaim of(Cron due, Instant now) {
        try {
            return new CronClaim(due.claimed(now), true);
        } catch (RuntimeException e) {
            LOG.warnf("Cron %s: its schedule \"%s\" in time zone %s can no longer be computed (%s); it gets no next tick "
                    + "until its schedule or time zone is changed", due.cronId(), due.schedule(), due.timezone(), e.getMessage());
            return new CronClaim(due.withNextRunDate(null), false);
        }
    }
}
