package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Run records in this JVM (the memory store of the service). Every access holds the store's lock, which makes
 * "reject when busy" and "one running run per thread" atomic without anything cleverer.
 *
 * <p>Finished runs stay (they are listed and joined), so nothing a run does may cost time in proportion to all the
 * runs ever stored: runs are indexed by thread, the pending ones are kept in claim order, and the running one of
 * each thread is known. A claim looks at pending runs only, a thread's question at that thread's runs only.
 */
public final class InMemoryRunStore implements RunStore {

    private static final Comparator<Run> OLDEST_FIRST = Runs.OLDEST_FIRST;

    private final Map<String, Run> runs = new HashMap<>();
    /** Run ids by thread, in creation order. */
    private final Map<String, Set<String>> byThread = new HashMap<>();
    /** Pending runs in claim order (their creation time and id never change). */
    private final NavigableSet<Run> pending = new TreeSet<>(OLDEST_FIRST);
    /** The running run of each thread (there is at most one). */
    private final Map<String, String> running = new HashMap<>();

    @Override
    public Uni<Run> create(Run run) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                // busy before duplicate, in the order the Postgres store finds them
                if (run.multitaskStrategy() == MultitaskStrategy.REJECT && !inflightOf(run.threadId()).isEmpty()) {
                    throw new ThreadBusyException(run.threadId());
                }
                if (runs.containsKey(run.runId())) {
                    throw Runs.exists(run.runId());
                }
                Run stored = Runs.asCreated(run);
                put(stored);
                return stored;
            }
        });
    }

    @Override
    public Uni<Optional<Run>> claimNext(String workerId, Instant now) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                for (Run r : pending) {
                    if ((r.notBefore() == null || !r.notBefore().isAfter(now)) && !running.containsKey(r.threadId())) {
                        Run claimed = r.claimedBy(workerId, now);
                        put(claimed);
                        return Optional.of(claimed);
                    }
                }
                return Optional.empty();
            }
        });
    }

    @Override
    public Uni<Optional<Run>> get(String runId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return Optional.ofNullable(runs.get(runId));
            }
        });
    }

    @Override
    public Uni<List<Run>> listByThread(String threadId, int limit, int offset, RunStatus status) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return ofThread(threadId).stream()
                        .filter(r -> status == null || r.status() == status)
                        .sorted(OLDEST_FIRST.reversed()).skip(offset).limit(limit).toList();
            }
        });
    }

    @Override
    public Uni<List<Run>> inflight(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return inflightOf(threadId);
            }
        });
    }

    private List<Run> inflightOf(String threadId) {
        return ofThread(threadId).stream().filter(r -> !r.status().finished()).sorted(OLDEST_FIRST).toList();
    }

    private List<Run> ofThread(String threadId) {
        Set<String> ids = byThread.get(threadId);
        if (ids == null) {
            return List.of();
        }
        List<Run> out = new ArrayList<>(ids.size());
        for (String id : ids) {
            out.add(runs.get(id));
        }
        return out;
    }

    private boolean hasRunning(String threadId) {
        return running.containsKey(threadId);
    }

    /** Stores the record, replacing the run's previous one, and keeps the indexes in step. */
    private void put(Run r) {
        Run old = runs.put(r.runId(), r);
        if (old != null) {
            unindexStatus(old);
        }
        byThread.computeIfAbsent(r.threadId(), t -> new LinkedHashSet<>()).add(r.runId());
        if (r.status() == RunStatus.PENDING) {
            pending.add(r);
        } else if (r.status() == RunStatus.RUNNING) {
            running.put(r.threadId(), r.runId());
        }
    }

    private Run remove(String runId) {
        Run r = runs.remove(runId);
        if (r != null) {
            unindexStatus(r);
            Set<String> ids = byThread.get(r.threadId());
            if (ids != null) {
                ids.remove(runId);
                if (ids.isEmpty()) {
                    byThread.remove(r.threadId());
                }
            }
        }
        return r;
    }

    private void unindexStatus(Run r) {
        if (r.status() == RunStatus.PENDING) {
            pending.remove(r);
        } else if (r.status() == RunStatus.RUNNING) {
            running.remove(r.threadId(), r.runId());
        }
    }

    @Override
    public Uni<Boolean> setStatus(String runId, RunStatus status, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null || r.status().finished()) {
                    return false;
                }
                // the same refusal as the unique index of the Postgres store
                if (status == RunStatus.RUNNING && r.status() != RunStatus.RUNNING && hasRunning(r.threadId())) {
                    return false;
                }
                put(moved(r, status, at));
                return true;
            }
        });
    }

    /** A run back to pending is held by no worker any more. */
    private static Run moved(Run r, RunStatus status, Instant at) {
        return status != RunStatus.PENDING ? r.withStatus(status, at) : new Run(r.runId(), r.threadId(), r.assistantId(), status,
                r.metadata(), r.multitaskStrategy(), r.kwargs(), r.createdAt(), at, r.notBefore(), null);
    }

    @Override
    public Uni<Boolean> cancelPending(String runId, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null || r.status() != RunStatus.PENDING) {
                    return false;
                }
                put(r.withStatus(RunStatus.INTERRUPTED, at));
                return true;
            }
        });
    }

    @Override
    public Uni<Boolean> delete(String runId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return remove(runId) != null;
            }
        });
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Set<String> ids = byThread.get(threadId);
                if (ids != null) {
                    for (String id : List.copyOf(ids)) {
                        remove(id);
                    }
                }
                return null;
            }
        });
    }

    @Override
    public Uni<List<Run>> requeueOrphans(String liveWorkerId, Instant at) {
        Predicate<Run> orphan = r -> r.status() == RunStatus.RUNNING && !Objects.equals(liveWorkerId, r.workerId());
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                List<Run> requeued = new ArrayList<>();
                for (String runId : List.copyOf(running.values())) {
                    Run r = runs.get(runId);
                    if (r != null && orphan.test(r)) {
                        requeued.add(r);
                    }
                }
                requeued.sort(OLDEST_FIRST);
                List<Run> out = new ArrayList<>(requeued.size());
                for (Run r : requeued) {
                    Run back = moved(r, RunStatus.PENDING, at);
                    put(back);
                    out.add(back);
                }
                return out;
            }
        });
    }
}
