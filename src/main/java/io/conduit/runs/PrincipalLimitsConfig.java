package io.conduit.runs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What one caller (a principal: an API key's owner, a token's subject) may use, {@code conduit.limits.per-principal.*},
 * beside the replica's own limits ({@link LimitsConfig}). Each is off at 0; past one, HTTP 429 with {@code Retry-After}
 * and the limit's code ({@link PrincipalLimit}). In auth mode {@code none} every caller is the one anonymous principal
 * for runs and tokens, and requests are counted per remote address (docs/auth.md).
 */
@ConfigMapping(prefix = "conduit.limits.per-principal")
public interface PrincipalLimitsConfig {

    /**
     * HTTP requests a caller may make per minute, on every door (WebSocket upgrades, and the frames that start runs
     * on an open WebSocket, included), as a token bucket: this many at once, then one more each 60/n seconds. Counted
     * by each replica: behind N replicas a caller may make up to N times this. 0: unlimited.
     */
    @WithDefault("0")
    int requestsPerMinute();

    /**
     * Runs of one caller in flight at once (pending or running), counted in the run store, so across every replica.
     * Past it a new run is refused with 429 {@code principal_run_limit}. 0: unlimited.
     */
    @WithDefault("0")
    int maxConcurrentRuns();

    /**
     * Model tokens (input plus output) a caller's runs may use per UTC day, counted where threads are stored. A caller
     * past it cannot start a run until the next UTC day (429 {@code token_budget_exhausted}); a run already going
     * finishes. 0: unlimited, and no usage is recorded.
     */
    @WithDefault("0")
    long tokensPerDay();

    /** Whether admins (an admin key, a token in the admin group) are exempt from these limits. */
    @WithDefault("true")
    boolean adminsExempt();

    /**
     * Callers whose request buckets one replica keeps at most (least recently used first out; an idle caller's bucket is
     * dropped after a minute, when it would be full again anyway): memory stays bounded however many callers come.
     */
    @WithDefault("100000")
    int maxTrackedCallers();
}
