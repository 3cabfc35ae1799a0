package io.conduit.runs.housekeeping;

import io.conduit.runs.Chore;
import io.conduit.runs.HousekeeperRole;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The cluster's chores, done by one replica. At each tick every replica asks for the {@link HousekeeperRole}; the one
 * that holds it does the chores that are due, one after the other, and the others do nothing. A chore is due when this
 * replica has not done it for its {@link Chore#every} (less half a tick, so that a chore of one tick's period is not put
 * off to the next by the timer's jitter); a replica that takes the role over does every chore at once, so a chore may
 * come early once at a change of housekeeper, never late by more than a tick.
 */
public final class ClusterHousekeeping {

    private static final Logger LOG = Logger.getLogger(ClusterHousekeeping.class);

    private final HousekeeperRole role;
    private final List<Chore> chores;
    private final Clock clock;
    private final Duration slack;
    /** When this replica last started each chore, while it held the role. */
    private final Map<Chore, Instant> lastDone = new ConcurrentHashMap<>();
    /** One tick at a time: a tick that comes while the last one's chores still run skips its turn. */
    private final AtomicBoolean ticking = new AtomicBoolean();
    private volatile boolean held;

    /** {@code interval}: the time between ticks. */
    public ClusterHousekeeping(HousekeeperRole role, List<Chore> chores, Clock clock, Duration interval) {
        this.role = role;
        this.chores = List.copyOf(chores);
        this.clock = clock;
        this.slack = interval.dividedBy(2);
    }

    /**
     * One tick: the names of the chores this replica did, in order; empty when another replica holds the role, none
     * was due, or the last tick still runs. Never fails: a chore's failure is logged and the other chores go on.
     */
    public Uni<List<String>> tick() {
        if (!ticking.compareAndSet(false, true)) {
            return Uni.createFrom().item(List.of());
        }
        return role.hold().chain(holds -> {
            if (holds != held) {
                held = holds;
                LOG.infof(holds ? "This replica does the cluster's housekeeping now (%s)" : "This replica no longer does the cluster's housekeeping (%s)",
                        String.join(", ", chores.stream().map(Chore::name).toList()));
            }
            return holds ? doDue() : Uni.createFrom().item(List.<String>of());
        }).eventually(() -> ticking.set(false));
    }

    private Uni<List<String>> doDue() {
        Instant now = clock.instant();
        List<Chore> due = chores.stream().filter(c -> isDue(c, now)).toList();
        return Multi.createFrom().iterable(due).onItem().transformToUniAndConcatenate(c -> {
            lastDone.put(c, now);
            return Uni.createFrom().deferred(c.work())
                    .onFailure().invoke(f -> LOG.warnf("The chore \"%s\" failed (%s); it is tried again in %s", c.name(), f.toString(), c.every()))
                    .onFailure().recoverWithNull()
                    .replaceWith(c.name());
        }).collect().asList();
    }

    private boolean isDue(Chore chore, Instant now) {
        Instant last = lastDone.get(chore);
        return last == null || !now.isBefore(last.plus(chore.every()).minus(slack));
    }
}
