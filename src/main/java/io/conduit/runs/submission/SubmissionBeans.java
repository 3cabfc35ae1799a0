package io.conduit.runs.submission;

import io.conduit.runs.Chore;
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
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;

/** What clients ask of runs and threads, made once: submission with its admission limits (the replica's, the caller's), and thread deletion. */
@ApplicationScoped
public class SubmissionBeans {

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

    /** Threads past their time to live are deleted, a hundred a minute: a chore of the cluster's housekeeper. */
    @Produces
    @Singleton
    Chore expiredThreads(ThreadDeletion deletion) {
        return new Chore("threads past their time to live", Duration.ofMinutes(1), () -> deletion.sweep(100));
    }
}
