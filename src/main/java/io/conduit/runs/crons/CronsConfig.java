package io.conduit.runs.crons;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Crons: {@code conduit.crons.*}. Every replica looks for due crons and claims each tick once (the store sees to it),
 * so any number of replicas run a tick at most once, not exactly once: the claim is committed before the run is
 * submitted, so a crash in between or a refused submission skips that tick (docs/api.md, Crons).
 */
@ConfigMapping(prefix = "conduit.crons")
public interface CronsConfig {

    /**
     * Whether this replica runs the ticks of due crons. Off, the crons API still creates, lists and deletes them, and
     * another replica (with it on) runs them.
     */
    @WithDefault("true")
    boolean enabled();

    /**
     * How often this replica looks for due crons: a tick's run starts at most this long after its time (plus the
     * time to claim it). Schedules have minutes as their finest unit, so a few seconds are plenty.
     */
    @WithDefault("5s")
    Duration pollInterval();

    /** The most crons one look claims; when that many were due, it looks again at once rather than at the next interval. */
    @WithDefault("50")
    int batchSize();
}
