package io.conduit.runs.crons;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Cron;
import io.conduit.runs.CronStore;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.worker.RunExecutor;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Runs crons' ticks: claims the due ones from the {@link CronStore} (each tick once across replicas) and submits each
 * one's run through {@link RunSubmission}, as its owner, as if the owner had asked for it then: so the checks, the
 * limits, the multitask strategy and the webhook apply as to any run. A tick whose run is refused (the thread busy
 * under {@code reject}, a limit reached, the assistant deleted) is logged and skipped; the cron's next tick still
 * comes. It claims nothing once the replica drains: a tick claimed just before is still submitted (a pending run,
 * which another replica executes).
 */
public final class CronScheduler {

    private static final Logger LOG = Logger.getLogger(CronScheduler.class);
    /** The metadata key naming the cron a run was submitted for. */
    public static final String CRON_ID = "cron_id";

    private final CronStore store;
    private final RunSubmission submission;
    private final RunExecutor executor;
    private final Clock clock;
    private final int batch;
    /** One look at a time: a timer that fires while the last look runs skips its turn. */
    private final AtomicBoolean looking = new AtomicBoolean();
    private volatile boolean stopped;

    public CronScheduler(CronStore store, RunSubmission submission, RunExecutor executor, Clock clock, int batch) {
        this.store = store;
        this.submission = submission;
        this.executor = executor;
        this.clock = clock;
        this.batch = batch;
    }

    /** Claims nothing more (the application stops). */
    public void stop() {
        stopped = true;
    }

    /**
     * Claims the crons due now and submits their runs; how many it claimed (0 when another look was running, or the
     * replica drains). Never fails: a failed claim is logged and the next look tries again.
     */
    public Uni<Integer> poll() {
        if (stopped || executor.draining() || !looking.compareAndSet(false, true)) {
            return Uni.createFrom().item(0);
        }
        return store.claimDue(clock.instant(), batch).chain(this::fireAll)
                .onFailure().recoverWithItem(f -> {
                    LOG.warnf("Claiming due crons failed (%s); the next look tries again", f.toString());
                    return 0;
                })
                .eventually(() -> looking.set(false))
                .chain(n -> n == batch ? poll().map(more -> n + more) : Uni.createFrom().item(n));
    }

    private Uni<Integer> fireAll(List<Cron> claimed) {
        if (claimed.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Uni.join().all(claimed.stream().map(this::fire).toList()).andCollectFailures().map(x -> claimed.size());
    }

    /** Submits the tick's run; a refusal is logged, not thrown (the other crons' ticks go on). */
    private Uni<Void> fire(Cron cron) {
        ObjectNode body = JsonCodec.MAPPER.valueToTree(cron.payload());
        body.put("assistant_id", cron.assistantId());
        Map<String, Object> metadata = new HashMap<>(cron.metadata());
        metadata.put(CRON_ID, cron.cronId());
        body.set("metadata", JsonCodec.MAPPER.valueToTree(metadata));
        if (cron.threadId() == null) {
            body.put("on_completion", cron.onRunCompleted() == null ? "delete" : cron.onRunCompleted());
        }
        return Uni.createFrom().deferred(() -> submission.submit(cron.threadId(), body, false, cron.owner()))
                .invoke(s -> LOG.debugf("Cron %s: run %s on thread %s", cron.cronId(), s.run().runId(), s.run().threadId()))
                .onFailure().invoke(f -> LOG.warnf("Cron %s: the run of this tick was refused (%s); its next tick is at %s",
                        cron.cronId(), f.toString(), cron.nextRunDate()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
