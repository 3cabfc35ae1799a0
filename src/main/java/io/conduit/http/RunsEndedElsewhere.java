package io.conduit.http;

import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.ServingConfig;
import io.conduit.runs.cluster.ClusterConfig;
import io.conduit.runs.events.ThreadEventLog;
import io.conduit.runs.events.ThreadLogs;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A stream that waits for a run which has not begun in this process's log (another replica executes it, or it has
 * not started yet) is answered from the run's record if the run ends without beginning here: once the record says it
 * ended, and the frames of a replica that executed it have had {@code conduit.cluster.relay-wait} to come (under load
 * they come late, and an answer from the record would miss every token). Looked up every
 * {@code conduit.runs.poll-interval}; without it such a stream would wait until its client left.
 */
@ApplicationScoped
public class RunsEndedElsewhere {

    private final RunStore runs;
    private final BooleanSupplier shared;
    private final Duration pollInterval;
    private final Duration relayWait;
    private final Vertx vertx;

    @Inject
    RunsEndedElsewhere(RunStore runs, ThreadLogs logs, ServingConfig config, ClusterConfig cluster, Vertx vertx) {
        this(runs, logs::shared, config.pollInterval(), cluster.relayWait(), vertx);
    }

    /** {@code shared}: whether other replicas may relay frames here ({@link ThreadLogs#shared()}). */
    RunsEndedElsewhere(RunStore runs, BooleanSupplier shared, Duration pollInterval, Duration relayWait, Vertx vertx) {
        this.runs = runs;
        this.shared = shared;
        this.pollInterval = pollInterval;
        this.relayWait = relayWait;
        this.vertx = vertx;
    }

    /**
     * Watches {@code run} for the subscription {@code waiting} of {@code log} until it begins here (the subscription
     * then follows it), the stream is {@code gone}, or it ends elsewhere: then {@code ended} gets its final record.
     */
    public void watch(Run run, ThreadEventLog log, ThreadEventLog.Subscription waiting, BooleanSupplier gone, Consumer<Run> ended) {
        vertx.setTimer(pollInterval.toMillis(), id -> {
            if (gone.getAsBoolean()) {
                return;
            }
            runs.get(run.runId()).subscribe().with(found -> {
                Run now = found.orElse(run.withStatus(RunStatus.INTERRUPTED, run.updatedAt()));
                if (!now.status().finished() || relayMayStillCome(now)) {
                    watch(run, log, waiting, gone, ended);
                } else if (log.giveUpWaiting(waiting)) {
                    ended.accept(now);
                }
            }, f -> watch(run, log, waiting, gone, ended));
        });
    }

    /** Whether the run ended on a replica that may still be relaying its frames here (its end ends the wait then). */
    private boolean relayMayStillCome(Run ended) {
        return shared.getAsBoolean() && ended.workerId() != null && ended.updatedAt().plus(relayWait).isAfter(Instant.now());
    }
}
