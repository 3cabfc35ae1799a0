package io.conduit.runs;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * The limits of one caller ({@link PrincipalLimitsConfig}): each refuses with its own code, and counts its refusals
 * (read by the metrics, {@code conduit.limit.refusals} tagged {@code limit}).
 */
public enum PrincipalLimit {

    REQUESTS("requests_per_minute", "too_many_requests"),
    CONCURRENT_RUNS("concurrent_runs", "principal_run_limit"),
    TOKENS("tokens_per_day", "token_budget_exhausted");

    private final String tag;
    private final String code;
    private final LongAdder refusals = new LongAdder();

    PrincipalLimit(String tag, String code) {
        this.tag = tag;
        this.code = code;
    }

    /** Its name as a metric's tag. */
    public String tag() {
        return tag;
    }

    /** The error code of its 429. */
    public String code() {
        return code;
    }

    /** How many requests it refused since the process started. */
    public long refusals() {
        return refusals.sum();
    }

    /** A refusal, counted: the 429 to answer, with {@code Retry-After} from {@code retryAfter}. */
    public LimitExceededException refuse(String message, Duration retryAfter) {
        refusals.increment();
        return new LimitExceededException(code, message, retryAfter);
    }

    /** Whether {@code caller}'s requests are exempt: an admin, when admins are; never the anonymous principal. */
    public static boolean exempt(io.conduit.auth.Principal caller, PrincipalLimitsConfig config) {
        return caller.admin() && !caller.anonymous() && config.adminsExempt();
    }
}
