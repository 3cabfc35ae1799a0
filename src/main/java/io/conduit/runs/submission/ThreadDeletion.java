package io.conduit.runs.submission;

import io.conduit.runs.RunStore;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.ThreadData;
import io.conduit.runs.ThreadStore;
import io.conduit.runs.events.ThreadLogs;
import io.conduit.runs.graphs.GraphRegistry;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Deletes a thread with everything it owns: checkpoints, run records, its record and its event logs. Refused while a
 * run is pending or running on it. Also the TTL sweep: threads past their {@code expiresAt} go the same way.
 */
public final class ThreadDeletion {

    private static final Logger LOG = Logger.getLogger(ThreadDeletion.class);

    private final ThreadStore threads;
    private final RunStore runs;
    private final ThreadLogs logs;
    private final GraphRegistry graphs;
    private final Clock clock;
    private final List<ThreadData> owned;

    public ThreadDeletion(ThreadStore threads, RunStore runs, ThreadLogs logs, GraphRegistry graphs,
                          Clock clock) {
        this(threads, runs, logs, graphs, clock, List.of());
    }

    /** {@code owned}: what else threads own (their files), deleted before the thread's record. */
    public ThreadDeletion(ThreadStore threads, RunStore runs, ThreadLogs logs, GraphRegistry graphs,
                          Clock clock, List<ThreadData> owned) {
        this.owned = List.copyOf(owned);
        this.threads = threads;
        this.runs = runs;
        this.logs = logs;
        this.graphs = graphs;
        this.clock = clock;
    }

    /** False when the thread does not exist; fails with {@link ThreadBusyException} while a run is in flight. */
    public Uni<Boolean> delete(String threadId) {
        return threads.get(threadId).chain(t -> {
            if (t.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            return runs.inflight(threadId).chain(inflight -> {
                if (!inflight.isEmpty()) {
                    return Uni.createFrom().failure(new ThreadBusyException(threadId));
                }
                return graphs.forThread(t.get()).graph().deleteThread(threadId).chain(() -> runs.deleteThread(threadId)).chain(() -> deleteOwned(threadId))
                        .chain(() -> threads.delete(threadId))
                        .invoke(() -> {
                            logs.forget(threadId);
                        }).replaceWith(true);
            });
        });
    }

    /** One after the other: a failure leaves the thread's record, so deleting it again finishes the job. */
    private Uni<Void> deleteOwned(String threadId) {
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (ThreadData data : owned) {
            chain = chain.chain(() -> data.deleteThread(threadId));
        }
        return chain;
    }

    /** Deletes up to {@code limit} expired threads; busy ones wait for the next sweep. */
    public Uni<Integer> sweep(int limit) {
        return threads.expired(clock.instant(), limit).chain(ids -> {
            if (ids.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            List<Uni<Boolean>> each = ids.stream().map(id -> delete(id).onFailure().recoverWithItem(false)).toList();
            return Uni.join().all(each).andCollectFailures().map(done -> {
                int n = (int) done.stream().filter(Boolean::booleanValue).count();
                if (n > 0) {
                    LOG.infof("Deleted %d thread(s) past their TTL", n);
                }
                return n;
            });
        });
    }
}
