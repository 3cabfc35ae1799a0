package io.conduit.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.conduit.auth.Principal;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.PrincipalLimit;
import io.conduit.runs.PrincipalLimitsConfig;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Requests per minute of each caller ({@code conduit.limits.per-principal.requests-per-minute}): a token bucket per
 * caller (Bucket4j), as many requests at once as the limit, refilled evenly over the minute, so a refusal says exactly
 * when the next request will pass ({@code Retry-After}). The buckets are kept in a bounded cache (Caffeine): an idle
 * caller's bucket is dropped after a minute, when it would be full again anyway, and past
 * {@code max-tracked-callers} the least recently used goes. Kept by each replica, not shared.
 *
 * <p>A caller is its principal; in auth mode none, every caller being the one anonymous principal, its remote address
 * (behind a proxy, the client's when {@code quarkus.http.proxy.proxy-address-forwarding} is on), so that one busy
 * client does not use up everyone's requests.
 */
@ApplicationScoped
public class RequestRates {

    /**
     * The request header naming the caller's bucket, set by {@link RequestRateGuard} on every request it counts (a
     * client's own value never survives it), so a WebSocket endpoint, which sees only its upgrade's headers, counts
     * the frames that start runs against the same bucket.
     */
    public static final String HEADER = "x-conduit-rate-key";

    private final PrincipalLimitsConfig config;
    private final int perMinute;
    private final TimeMeter time;
    private final Cache<String, Bucket> buckets;

    @Inject
    RequestRates(PrincipalLimitsConfig config) {
        this(config, TimeMeter.SYSTEM_MILLISECONDS);
    }

    RequestRates(PrincipalLimitsConfig config, TimeMeter time) {
        this.config = config;
        this.perMinute = config.requestsPerMinute();
        this.time = time;
        this.buckets = Caffeine.newBuilder().maximumSize(Math.max(1, config.maxTrackedCallers()))
                .expireAfterAccess(Duration.ofMinutes(1)).build();
    }

    /** Whether requests are counted at all. */
    public boolean on() {
        return perMinute > 0;
    }

    /** The bucket {@code caller}'s requests are counted in; null when they are not counted (off, or an exempt admin). */
    public String key(Principal caller, String remoteAddress) {
        if (!on() || PrincipalLimit.exempt(caller, config)) {
            return null;
        }
        return caller.anonymous() ? "address:" + remoteAddress : "principal:" + caller.id();
    }

    /** Takes one request from bucket {@code key}: null when it may go on, else its refusal (429 with {@code Retry-After}). */
    public LimitExceededException take(String key) {
        if (key == null || !on()) {
            return null;
        }
        ConsumptionProbe probe = buckets.get(key, k -> bucket()).tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            return null;
        }
        return PrincipalLimit.REQUESTS.refuse("more than " + perMinute + " requests a minute (conduit.limits.per-principal"
                + ".requests-per-minute); retry later", Duration.ofNanos(probe.getNanosToWaitForRefill()));
    }

    private Bucket bucket() {
        return Bucket.builder().addLimit(l -> l.capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)))
                .withCustomTimePrecision(time).build();
    }

    /** How many callers' buckets are kept (bounded by {@code max-tracked-callers}). */
    long tracked() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }
}
