package io.conduit.runs.worker;

import io.conduit.graph.GraphException;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadStatus;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.graphs.RegisteredGraph;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * What a run's end leaves its thread with, beyond the run's own record: the thread's status, a rolled-back run's
 * checkpoints deleted, a stateless run's thread deleted.
 */
final class ThreadSettlement {

    /** The worker's messages keep their one category, whichever part of it logs them. */
    private static final Logger LOG = Logger.getLogger(RunExecutor.class);

    private final RunStore runs;
    private final ThreadStore threads;
    private final Function<String, RegisteredGraph> graphs;
    private final Clock clock;

    ThreadSettlement(RunStore runs, ThreadStore threads, Function<String, RegisteredGraph> graphs, Clock clock) {
        this.runs = runs;
        this.threads = threads;
        this.graphs = graphs;
        this.clock = clock;
    }

    static Uni<Void> rollbackCheckpoints(RegisteredGraph g, Run run) {
        if (g == null) {
            return Uni.createFrom().voidItem();
        }
        return g.graph().rollback(run.threadId(), run.runId()).replaceWithVoid()
                .onFailure(GraphException.class).recoverWithUni(f -> {
                    LOG.warnf("Rolling back run %s: %s", run.runId(), f.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /**
     * The thread's status once a run has ended: error if it failed, interrupted if it waits for an answer, busy while
     * runs remain queued, idle otherwise.
     */
    Uni<Void> settleThread(String threadId, RunStatus ended, RegisteredGraph g) {
        return runs.inflight(threadId).chain(queued -> {
            ThreadStatus s;
            if (!queued.isEmpty()) {
                s = ThreadStatus.BUSY;
            } else if (ended == RunStatus.ERROR || ended == RunStatus.TIMEOUT) {
                s = ThreadStatus.ERROR;
            } else {
                return waitingAtInterrupt(threadId, g).chain(waiting -> threads.setStatus(threadId, waiting ? ThreadStatus.INTERRUPTED : ThreadStatus.IDLE, clock.instant()));
            }
            return threads.setStatus(threadId, s, clock.instant());
        });
    }

    private Uni<Boolean> waitingAtInterrupt(String threadId, RegisteredGraph g) {
        if (g == null) {
            return Uni.createFrom().item(false);
        }
        return g.graph().state(threadId).map(s -> s.map(snap -> !snap.interrupts().isEmpty() || !snap.next().isEmpty()).orElse(false));
    }

    /** A stateless run's thread goes with it, unless it asked to keep it ({@code on_completion=keep}). */
    Uni<Void> cleanupTemporary(Run run) {
        if (!run.spec().deletesThread()) {
            return Uni.createFrom().voidItem();
        }
        RegisteredGraph g = graphs.apply(run.spec().graphId());
        Uni<Void> checkpoints = g == null ? Uni.createFrom().voidItem() : g.graph().deleteThread(run.threadId());
        return checkpoints.chain(() -> runs.deleteThread(run.threadId())).chain(() -> threads.delete(run.threadId())).replaceWithVoid();
    }
}
