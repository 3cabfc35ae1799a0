package io.conduit.runs.worker;

import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.Worker;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * This worker's hold on its runs and the recovery of the runs of workers that are gone: the hold is renewed (see
 * {@link #heartbeat}) on the runs it holds, and only those; a run whose holder stopped renewing is queued again. A
 * holder that was itself that worker (paused past its lease) learns it from its next renewal or its next write
 * ({@link #admit}), whichever comes first, and lets the run go without writing over its new holder.
 */
final class WorkerLease {

    /** The worker's messages keep their one category, whichever part of it logs them. */
    private static final Logger LOG = Logger.getLogger(RunExecutor.class);

    private final RunStore runs;
    private final Worker worker;
    private final Clock clock;
    private final Duration lease;
    private final HeldRuns held;
    /** Wakes the claim loop: runs were queued again. */
    private final Runnable wake;
    /** Stops a run found to be this worker's no more ({@link RunEnding#lost}). */
    private final Consumer<HeldRun> lost;
    /** Whether this replica's port is bound: until then no other live process is proven not to share its id. */
    private volatile boolean replicaProven;
    /** When a renewal last succeeded. */
    private volatile Instant renewed;
    /** Whether the last renewal failed: the store is out of reach, for this worker and likely for every other. */
    private volatile boolean refused;
    /** After an outage: when it began (the last renewal before it) and when the store took a renewal again. */
    private volatile Instant outageFrom;
    private volatile Instant storeBack;

    WorkerLease(RunStore runs, Worker worker, Clock clock, Duration lease, HeldRuns held, Runnable wake, Consumer<HeldRun> lost) {
        this.runs = runs;
        this.worker = worker;
        this.clock = clock;
        this.lease = lease;
        this.held = held;
        this.wake = wake;
        this.lost = lost;
    }

    /**
     * Recovery, at start-up and on every {@link #heartbeat}: runs left running by a worker that is gone are queued
     * again, to be resumed from their checkpoints. Gone is an earlier incarnation of this replica (a restart after a
     * crash takes its runs back at once), or any worker that has not renewed its hold for a lease (a process that died;
     * a live one renews far more often). Runs of live workers, on other replicas, are left alone.
     */
    Uni<List<Run>> recover() {
        Instant now = clock.instant();
        return runs.requeueOrphans(replicaProven ? worker : worker.unproven(), held.ids(), staleBefore(now), now)
                .invoke(found -> {
            if (!found.isEmpty()) {
                LOG.infof("Resuming %d run(s) left running by a stopped process", found.size());
            }
        });
    }

    /**
     * Renews this worker's hold on the runs it holds (and only those), then recovers those of dead workers. Call it
     * every lease / 3.
     */
    Uni<List<Run>> heartbeat() {
        return renew().chain(this::recoverAfterRenew);
    }

    /**
     * Renews the hold on the runs this worker holds: a write, so it also tells whether the store takes writes. A run
     * the store did not renew, and that has not ended meanwhile, is another worker's now: it is let go.
     */
    Uni<Integer> renew() {
        List<HeldRun> asked = held.all(); // the holds themselves: a run id let go and claimed again is another hold
        Instant at = clock.instant();
        return runs.renew(worker.id(), asked.stream().map(a -> a.run.runId()).toList(), at).invoke(kept -> {
            settle(asked, Set.copyOf(kept), at);
            Instant now = clock.instant();
            if (refused) {
                refused = false;
                outageFrom = renewed;
                storeBack = now;
            }
            renewed = now;
        }).map(List::size).onFailure().invoke(f -> refused = true);
    }

    private void settle(List<HeldRun> asked, Set<String> renewed, Instant at) {
        for (HeldRun a : asked) {
            if (a.done) {
                continue; // ended meanwhile: its record is no longer running, which is why it was not renewed
            }
            if (renewed.contains(a.run.runId())) {
                a.heldAt = at;
            } else {
                lost.accept(a);
            }
        }
    }

    /**
     * The fence of a run's writes ({@link io.conduit.graph.WriteFence}): refused once the run is found to be another
     * worker's ({@link #confirm}). A renewal the store does not answer refuses nothing: the write meets the same store,
     * with its own retries, and its check of the thread's head.
     */
    Uni<Void> admit(HeldRun a) {
        return confirm(a).chain(mine -> mine ? Uni.createFrom().voidItem() : refused(a.run.runId()));
    }

    /**
     * Whether the run is still this worker's, for what is about to act on it (a write, a stop). A hold renewed within
     * half a lease is taken as this worker's without asking: no other worker takes a run over before a whole lease has
     * passed since its last renewal. An older hold (this process was paused, or the store out of reach) is renewed
     * first; a run the store no longer gives this worker is let go ({@link RunEnding#lost}). A renewal the store does
     * not answer says yes: nothing better is known.
     */
    Uni<Boolean> confirm(HeldRun a) {
        if (a.letGo) {
            return Uni.createFrom().item(false);
        }
        String id = a.run.runId();
        Instant now = clock.instant();
        if (now.isBefore(a.heldAt.plus(lease.dividedBy(2)))) {
            return Uni.createFrom().item(true);
        }
        return runs.renew(worker.id(), List.of(id), now).map(kept -> kept.contains(id))
                .invoke(mine -> {
                    if (mine) {
                        a.heldAt = now;
                    } else {
                        settle(List.of(a), Set.of(), now);
                    }
                })
                .onFailure().recoverWithItem(true);
    }

    private static Uni<Void> refused(String runId) {
        return Uni.createFrom().failure(new IllegalStateException("run " + runId + " is held by another worker now"));
    }

    /**
     * Runs last renewed before this are their holder's no more. A holder is gone when it has not renewed for a lease
     * while the store took writes: for a lease after an outage (the database restarted) every live holder's last
     * renewal is from before it, so only runs already stale when it began are taken, not the live replicas' runs.
     */
    Instant staleBefore(Instant now) {
        Instant back = storeBack;
        Instant from = outageFrom;
        Instant stale = now.minus(lease);
        if (back == null || !stale.isBefore(back)) {
            return stale;
        }
        return from == null ? Instant.EPOCH : from.minus(lease);
    }

    private Uni<List<Run>> recoverAfterRenew(Integer renewed) {
        return recover().invoke(found -> {
            if (!found.isEmpty()) {
                wake.run();
            }
        });
    }

    /**
     * This replica's HTTP port is bound, so no other live process has its id (see {@link Worker}): from now on recovery
     * takes back the runs of its former incarnations at once. Then recovers and wakes.
     */
    Uni<List<Run>> replicaProven() {
        replicaProven = true;
        return recover().invoke(found -> wake.run());
    }

    Duration lease() {
        return lease;
    }
}
