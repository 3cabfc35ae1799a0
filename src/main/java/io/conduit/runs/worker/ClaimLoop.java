package io.conduit.runs.worker;

import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.Worker;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jboss.logging.Logger;

/**
 * Claims pending runs from the {@link RunStore} (the store guarantees one running run per thread) and hands each to be
 * started, while this worker holds fewer than its maximum.
 */
final class ClaimLoop {

    /** The worker's messages keep their one category, whichever part of it logs them. */
    private static final Logger LOG = Logger.getLogger(RunExecutor.class);
    /**
     * The most runs one claim takes: a burst of pending runs (a thousand clients starting at once) starts in one round
     * trip per batch rather than one per run.
     */
    private static final int BATCH = 16;

    private final RunStore runs;
    private final Worker worker;
    private final Clock clock;
    private final HeldRuns held;
    private final int maxConcurrent;
    private final RunExecutor.Timers timers;
    /** Starts a claimed run (the worker executes it). */
    private final Consumer<Run> start;
    private final AtomicInteger wip = new AtomicInteger();
    /** The replica drains: nothing more is claimed. */
    private volatile boolean stopped;

    ClaimLoop(RunStore runs, Worker worker, Clock clock, HeldRuns held, int maxConcurrent, RunExecutor.Timers timers,
              Consumer<Run> start) {
        this.runs = runs;
        this.worker = worker;
        this.clock = clock;
        this.held = held;
        this.maxConcurrent = maxConcurrent;
        this.timers = timers;
        this.start = start;
    }

    /** Claims nothing more (the replica drains); a claim on its way is handed back as it arrives. */
    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    /** Claims and starts what can run now. Cheap to call often: concurrent calls fold into one claim loop. */
    void wake() {
        if (wip.getAndIncrement() == 0) {
            claim();
        }
    }

    private void claim() {
        int seen = wip.get();
        int free = maxConcurrent - held.count();
        if (stopped || free <= 0) {
            wip.set(0); // a run that ends wakes the loop again
            return;
        }
        int asked = Math.min(free, BATCH);
        runs.claim(worker.id(), clock.instant(), asked).subscribe().with(found -> {
            if (!found.isEmpty() && stopped) {
                // claimed while the drain began: handed straight back, for another replica to claim
                found.forEach(run -> runs.release(run.runId(), worker.id(), clock.instant()).subscribe().with(x -> { }, f -> LOG
                        .warnf("Handing back run %s failed (%s); its lease lapses instead", run.runId(), f.toString())));
                wip.set(0);
                return;
            }
            found.forEach(start);
            if (found.size() == asked) {
                // more may be waiting: a burst of thousands (a streaming load) must not start in one synchronous
                // recursion, which held the event loop for seconds, so the next claim goes through the event loop
                timers.schedule(Duration.ZERO, this::claim);
            } else if (!wip.compareAndSet(seen, 0)) {
                claim(); // woken while claiming: look again
            }
        }, failure -> {
            LOG.warnf("Claiming runs failed (%s); the next wake-up tries again", failure.toString());
            wip.set(0);
        });
    }
}
