package io.conduit.runs.crons;

import io.conduit.runs.CronStore;
import io.conduit.runs.ThreadData;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.WebhooksConfig;
import io.conduit.runs.graphs.Assistants;
import io.conduit.runs.submission.RunSubmission;
import io.conduit.runs.submission.WebhookTargets;
import io.conduit.runs.worker.RunExecutor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.List;

/**
 * Crons, made once: the API's operations, the scheduler on a Vert.x periodic timer (non-blocking: a look is a claim
 * and the submissions, all asynchronous; no quarkus-scheduler, whose jobs would add a thread pool for one timer), and
 * the deletion of a thread's crons with the thread.
 */
@ApplicationScoped
public class CronBeans {

    private long timer = -1;

    @Produces
    @Singleton
    Crons crons(CronStore store, ThreadStore threads, Assistants assistants, WebhooksConfig webhooks) {
        return new Crons(store, threads, assistants, new CronRequests(new WebhookTargets(webhooks.allowedHosts().orElse(List.of()))),
                Clock.systemUTC());
    }

    @Produces
    @Singleton
    CronScheduler scheduler(CronStore store, RunSubmission submission, RunExecutor executor, CronsConfig config) {
        return new CronScheduler(store, submission, executor, Clock.systemUTC(), Math.max(1, config.batchSize()));
    }

    /** A thread's crons go with it (LangGraph's do too). */
    @Produces
    @Singleton
    ThreadData threadCrons(CronStore store) {
        return new ThreadData() {
            @Override
            public Uni<Void> deleteThread(String threadId) {
                return store.deleteForThread(threadId).replaceWithVoid();
            }
        };
    }

    void start(@Observes StartupEvent e, CronScheduler scheduler, CronsConfig config, Vertx vertx) {
        if (config.enabled()) {
            timer = vertx.setPeriodic(Math.max(100, config.pollInterval().toMillis()), id -> scheduler.poll().subscribe().with(n -> { }));
        }
    }

    void stop(@Observes ShutdownEvent e, CronScheduler scheduler, Vertx vertx) {
        scheduler.stop();
        if (timer != -1) {
            vertx.cancelTimer(timer);
        }
    }
}
