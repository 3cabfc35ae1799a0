package io.conduit.runs.usage;

import io.conduit.auth.Principal;
import io.conduit.runs.Run;
import io.conduit.runs.TokenUsageStore;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * The model tokens each principal used today (UTC): what the store holds plus what this replica recorded and is still
 * writing. Counting the writes in flight makes a run's usage visible here as soon as its model call ended, so the
 * next run of its principal on this replica is checked against it, not against a count one write behind.
 */
public final class DailyTokens {

    private static final Logger LOG = Logger.getLogger(DailyTokens.class);

    private final TokenUsageStore store;
    private final Clock clock;
    /** Per principal, tokens recorded here whose write to the store has not completed. */
    private final Map<String, Long> writing = new ConcurrentHashMap<>();

    public DailyTokens(TokenUsageStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Whose tokens a run spends: the principal that asked for it, recorded as its owner; else the anonymous one. */
    public static String principalOf(Run run) {
        return run.metadata().get(Principal.OWNER) instanceof String owner ? owner : Principal.ANONYMOUS.id();
    }

    /** The name under which {@code caller}'s tokens are counted (as {@link #principalOf} names a run's). */
    public static String principalOf(Principal caller) {
        return caller.anonymous() ? Principal.ANONYMOUS.id() : caller.id();
    }

    /** Adds {@code tokens} to what {@code principal} used today; written in the background. */
    public void record(String principal, long tokens) {
        if (tokens <= 0) {
            return;
        }
        writing.merge(principal, tokens, Long::sum); // each change in the map's lock: no count lands on a removed entry
        store.add(principal, today(), tokens).onTermination().invoke(() -> writing.computeIfPresent(principal,
                        (p, n) -> n == tokens ? null : n - tokens))
                .subscribe().with(total -> { }, f -> LOG.warnf("Recording %d tokens of %s failed: %s", tokens, principal, f.toString()));
    }

    /**
     * What {@code principal} used today, its writes in flight included. Those are read before the store: a write that
     * lands in between is then counted twice, never missed (a budget may refuse a moment early, not late).
     */
    public Uni<Long> usedToday(String principal) {
        return Uni.createFrom().deferred(() -> {
            Long w = writing.get(principal);
            long inFlight = w == null ? 0 : w;
            return store.used(principal, today()).map(stored -> stored + inFlight);
        });
    }

    public LocalDate today() {
        return LocalDate.now(clock.withZone(ZoneOffset.UTC));
    }

    /** Until the next UTC day begins, when every budget is whole again. */
    public Duration untilTomorrow() {
        return Duration.between(clock.instant(), today().plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
    }

    /** Forgets the days more than {@code keep} days before today. */
    public Uni<Integer> forgetOlderThan(int keep) {
        return store.forgetBefore(today().minusDays(keep));
    }
}
