package io.conduit.runs.submission;

import io.conduit.runs.LimitsConfig;
import io.conduit.runs.PrincipalLimitsConfig;
import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadData;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.WebhooksConfig;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.usage.DailyTokens;
import io.conduit.runs.worker.RunExecutor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;

/** What clients ask of runs and threads, made once: submission with its admission limits (the replica's, the caller's), and thread deletion. */
@ApplicationScoped
public class SubmissionBeans {

    private long ttlTimer = -1;

    @Produces
    @Singleton
    RunSubmission submission(RunStore runs, ThreadStore threads, Assistants assistants, RunExecutor executor, ThreadLogs logs,
                             LimitsConfig limits, PrincipalLimitsConfig perPrincipal, DailyTokens tokens,
                             WebhooksConfig webhooks) {
        return new RunSubmission(runs, threads, assistants, executor, logs, Clock.systemUTC(),
                new RunAdmission(logs, runs, limits.maxActiveRuns(), limits.maxQueuedRunsPerThread(), limits.retryAfter(),
                        new PrincipalAdmission(runs, tokens, perPrincipal, limits.retryAfter())),
                new WebhookTargets(webhooks.allowedHosts().orElse(java.util.List.of())));
    }

    @Produces
    @Singleton
    ThreadDeletion deletion(ThreadStore threads, RunStore runs, ThreadLogs logs, GraphRegistry graphs,
                            Instance<ThreadData> owned) {
        return new ThreadDeletion(threads, runs, logs, graphs, Clock.systemUTC(), owned.stream().toList());
    }

    /** Threads past their time to live are deleted, a hundred a minute. */
    void start(@Observes StartupEvent e, ThreadDeletion deletion, Vertx vertx) {
        ttlTimer = vertx.setPeriodic(60_000, id -> deletion.sweep(100).subscribe().with(n -> { }, f -> { }));
    }

    void stop(@Observes ShutdownEvent e, Vertx vertx) {
        vertx.cancelTimer(ttlTimer);
    }
}
