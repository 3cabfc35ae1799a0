package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.auth.Principal;
import io.conduit.runs.LimitExceededException;
import io.conduit.runs.PrincipalLimit;
import io.conduit.runs.PrincipalLimitsConfig;
import io.github.bucket4j.TimeMeter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Each caller's requests per minute, on a clock the test moves. */
class RequestRatesTest {

    /** A clock that stands still until the test moves it. */
    private static final class Clock implements TimeMeter {
        final AtomicLong nanos = new AtomicLong(TimeUnit.DAYS.toNanos(1));

        @Override
        public long currentTimeNanos() {
            return nanos.get();
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }

        void advanceSeconds(long s) {
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(s));
        }
    }

    static PrincipalLimitsConfig limits(int perMinute, boolean adminsExempt, int maxCallers) {
        return new PrincipalLimitsConfig() {
            @Override
            public int requestsPerMinute() {
                return perMinute;
            }

            @Override
            public int maxConcurrentRuns() {
                return 0;
            }

            @Override
            public long tokensPerDay() {
                return 0;
            }

            @Override
            public boolean adminsExempt() {
                return adminsExempt;
            }

            @Override
            public int maxTrackedCallers() {
                return maxCallers;
            }
        };
    }

    private final Clock clock = new Clock();
    private final Principal ada = Principal.user("ada", false);
    private final Principal bo = Principal.user("bo", false);

    private static boolean passes(RequestRates rates, String key) {
        return rates.take(key) == null;
    }

    @Test
    void aCallerPastItsLimitIsRefusedUntilItsBucketRefillsAndOthersStillPass() {
        RequestRates rates = new RequestRates(limits(3, true, 100), clock);
        String a = rates.key(ada, "10.0.0.1");
        for (int i = 0; i < 3; i++) {
            assertThat(passes(rates, a)).as("request %d", i + 1).isTrue();
        }
        long before = PrincipalLimit.REQUESTS.refusals();
        LimitExceededException refused = rates.take(a);
        assertThat(refused).isNotNull();
        assertThat(refused.code()).isEqualTo("too_many_requests");
        // one request comes back every 20 s (3 a minute): that is when to retry
        assertThat(refused.retryAfterSeconds()).isEqualTo(20);
        assertThat(PrincipalLimit.REQUESTS.refusals()).isEqualTo(before + 1);
        assertThat(passes(rates, rates.key(bo, "10.0.0.1"))).as("another principal, same address").isTrue();

        clock.advanceSeconds(19);
        assertThat(rates.take(a).retryAfterSeconds()).isEqualTo(1);
        clock.advanceSeconds(1);
        assertThat(passes(rates, a)).isTrue();
        assertThat(passes(rates, a)).isFalse();
    }

    @Test
    void anonymousCallersAreCountedByAddress() {
        RequestRates rates = new RequestRates(limits(1, true, 100), clock);
        String first = rates.key(Principal.ANONYMOUS, "10.0.0.1");
        assertThat(passes(rates, first)).isTrue();
        assertThat(passes(rates, first)).isFalse();
        assertThat(passes(rates, rates.key(Principal.ANONYMOUS, "10.0.0.2"))).isTrue();
        // a principal named like an address does not share its bucket
        assertThat(passes(rates, rates.key(Principal.user("10.0.0.1", false), "10.0.0.1"))).isTrue();
    }

    @Test
    void adminsAreExemptUnlessConfiguredOtherwise() {
        Principal admin = Principal.user("root", true);
        assertThat(new RequestRates(limits(1, true, 100), clock).key(admin, "10.0.0.1")).isNull();
        RequestRates counted = new RequestRates(limits(1, false, 100), clock);
        String key = counted.key(admin, "10.0.0.1");
        assertThat(passes(counted, key)).isTrue();
        assertThat(passes(counted, key)).isFalse();
        // the anonymous principal of auth mode none sees everything, like an admin, but is never exempt
        assertThat(new RequestRates(limits(1, true, 100), clock).key(Principal.ANONYMOUS, "10.0.0.1")).isNotNull();
    }

    @Test
    void offCountsNothing() {
        RequestRates rates = new RequestRates(limits(0, true, 100), clock);
        assertThat(rates.on()).isFalse();
        assertThat(rates.key(ada, "10.0.0.1")).isNull();
        assertThat(rates.take("principal:ada")).isNull();
    }

    @Test
    void theBucketsKeptAreBounded() {
        RequestRates rates = new RequestRates(limits(5, true, 50), clock);
        for (int i = 0; i < 1_000; i++) {
            rates.take(rates.key(Principal.user("user-" + i, false), "10.0.0.1"));
        }
        assertThat(rates.tracked()).isLessThanOrEqualTo(50);
    }
}
