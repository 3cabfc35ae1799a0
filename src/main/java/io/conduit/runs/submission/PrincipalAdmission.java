package io.conduit.runs.submission;

import io.conduit.auth.Principal;
import io.conduit.runs.PrincipalLimit;
import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.RunStore;
import io.conduit.runs.usage.DailyTokens;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a caller may start one more run ({@link PrincipalLimitsConfig}): its runs in flight, counted in the run store
 * (so on every replica alike), under {@code max-concurrent-runs}; and its model tokens today under
 * {@code tokens-per-day}. Refusals are 429s ({@link PrincipalLimit}).
 *
 * <p>As {@link RunAdmission} does, an admitted run is reserved until its record is stored, so a caller's requests
 * arriving together on one replica cannot all pass between the count and the write. Requests arriving together on
 * several replicas can still pass it by one each: the count is the store's, not a lock.
 */
public final class PrincipalAdmission {

    private final RunStore runs;
    private final DailyTokens tokens;
    private final PrincipalLimitsConfig config;
    private final Duration retryAfter;
    /** Per principal, admitted runs whose record is not stored yet. */
    private final ConcurrentHashMap<String, Integer> reserving = new ConcurrentHashMap<>();

    public PrincipalAdmission(RunStore runs, DailyTokens tokens, PrincipalLimitsConfig config, Duration retryAfter) {
        this.runs = runs;
        this.tokens = tokens;
        this.config = config;
        this.retryAfter = retryAfter;
    }

    /** A run's place among its caller's, held until {@link #release()} (its record is stored, or it failed). */
    public final class Reservation {
        private final String principal;
        private final AtomicBoolean held;

        private Reservation(String principal) {
            this.principal = principal;
            this.held = new AtomicBoolean(principal != null);
        }

        public void release() {
            if (held.compareAndSet(true, false)) {
                reserving.computeIfPresent(principal, (k, n) -> n == 1 ? null : n - 1); // in the map's lock, as the add
            }
        }
    }

    /** A reservation for a run of {@code caller}, or a 429 {@code token_budget_exhausted} or {@code principal_run_limit}. */
    public Uni<Reservation> admit(Principal caller) {
        if (PrincipalLimit.exempt(caller, config)) {
            return Uni.createFrom().item(new Reservation(null));
        }
        String principal = DailyTokens.principalOf(caller);
        return withinBudget(principal).chain(() -> reserve(caller, principal));
    }

    private Uni<Void> withinBudget(String principal) {
        long budget = config.tokensPerDay();
        if (budget <= 0) {
            return Uni.createFrom().voidItem();
        }
        return tokens.usedToday(principal).invoke(used -> {
            if (used >= budget) {
                throw PrincipalLimit.TOKENS.refuse(principal + " used " + used + " model tokens today, its budget of " + budget
                        + " (conduit.limits.per-principal.tokens-per-day); runs start again at the next UTC day", tokens.untilTomorrow());
            }
        }).replaceWithVoid();
    }

    private Uni<Reservation> reserve(Principal caller, String principal) {
        int max = config.maxConcurrentRuns();
        if (max <= 0) {
            return Uni.createFrom().item(new Reservation(null));
        }
        return Uni.createFrom().deferred(() -> {
            int before = reserving.merge(principal, 1, Integer::sum) - 1;
            Reservation r = new Reservation(principal);
            // the anonymous principal of auth mode none is every caller: all runs in flight are its own
            return runs.countInflight(caller.anonymous() ? null : caller.id()).map(inflight -> {
                if (inflight + before >= max) {
                    throw PrincipalLimit.CONCURRENT_RUNS.refuse(principal + " has " + (inflight + before) + " runs in flight, its limit "
                            + "(conduit.limits.per-principal.max-concurrent-runs); retry when one has ended", retryAfter);
                }
                return r;
            }).onFailure().invoke(r::release).onCancellation().invoke(r::release); // a client gone meanwhile
        });
    }
}
