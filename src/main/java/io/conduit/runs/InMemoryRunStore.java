package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Run records in this JVM (the memory store of the service). Every access holds the store's lock, which makes
 * "reject when busy" and "one running run per thread" atomic without anything cleverer.
 */
public final class InMemoryRunStore implements RunStore {

    private static final Comparator<Run> OLDEST_FIRST = Runs.OLDEST_FIRST;

    private final Map<String, Run> runs = new HashMap<>();

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
                runs.put(run.runId(), stored);
                return stored;
            }
        });
    }

    @Override
    public Uni<Optional<Run>> claimNext(String workerId, Instant now) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Optional<Run> next = runs.values().stream()
                        .filter(r -> r.status() == RunStatus.PENDING)
                        .filter(r -> r.notBefore() == null || !r.notBefore().isAfter(now))
                        .filter(r -> !hasRunning(r.threadId()))
                        .min(OLDEST_FIRST);
                next.ifPresent(r -> runs.put(r.runId(), r.claimedBy(workerId, now)));
                return next.map(r -> runs.get(r.runId()));
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
                return runs.values().stream()
                        .filter(r -> r.threadId().equals(threadId) && (status == null || r.status() == status))
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
        return runs.values().stream()
                .filter(r -> r.threadId().equals(threadId) && !r.status().finished())
                .sorted(OLDEST_FIRST).toList();
    }

    private boolean hasRunning(String threadId) {
        return runs.values().stream().anyMatch(r -> r.status() == RunStatus.RUNNING && r.threadId().equals(threadId));
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
                runs.put(runId, moved(r, status, at));
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
                runs.put(runId, r.withStatus(RunStatus.INTERRUPTED, at));
                return true;
            }
        });
    }

    @Override
    public Uni<Boolean> delete(String runId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return runs.remove(runId) != null;
            }
        });
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                runs.values().removeIf(r -> r.threadId().equals(threadId));
                return null;
            }
        });
    }

    @Override
    public Uni<Integer> renew(String workerId, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                int n = 0;
                for (Run r : List.copyOf(runs.values())) {
                    if (r.status() == RunStatus.RUNNING && Objects.equals(workerId, r.workerId())) {
                        runs.put(r.runId(), r.withStatus(RunStatus.RUNNING, at));
                        n++;
                    }
                }
                return n;
            }
        });
    }

    @Override
    public Uni<List<Run>> requeueOrphans(String liveWorkerId, Instant staleBefore, Instant at) {
        Predicate<Run> orphan = r -> r.status() == RunStatus.RUNNING && !Objects.equals(liveWorkerId, r.workerId())
                && r.updatedAt().isBefore(staleBefore);
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                List<Run> requeued = new ArrayList<>();
                for (Run r : runs.values().stream().filter(orphan).sorted(OLDEST_FIRST).toList()) {
                    Run pending = moved(r, RunStatus.PENDING, at);
                    runs.put(r.runId(), pending);
                    requeued.add(pending);
                }
                return requeued;
            }
        });
    }
}
