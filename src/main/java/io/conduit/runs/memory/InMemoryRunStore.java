package io.conduit.runs.memory;

import io.conduit.runs.MultitaskStrategy;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.Runs;
import io.conduit.runs.ThreadBusyException;
import io.conduit.runs.Worker;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Run records in this JVM (the memory store of the service). Every access holds the store's lock, which makes
 * "reject when busy" and "one running run per thread" atomic without anything cleverer. Indexed by thread, by
 * status and by age, so claiming and checking a thread cost the same however many finished runs are kept.
 */
public final class InMemoryRunStore implements RunStore {

    private static final Comparator<Run> OLDEST_FIRST = Runs.OLDEST_FIRST;

    private final Map<String, Run> runs = new HashMap<>();
    private final Map<String, Set<String>> byThread = new HashMap<>();
    private final TreeSet<Run> pending = new TreeSet<>(OLDEST_FIRST);
    /** The running run of each thread that has one. */
    private final Map<String, String> running = new HashMap<>();

    /** Every change of a record goes through here, so the indexes follow. */
    private void put(Run before, Run after) {
        if (before != null) {
            pending.remove(before);
            if (before.status() == RunStatus.RUNNING) {
                running.remove(before.threadId(), before.runId());
            }
        }
        if (after == null) {
            runs.remove(before.runId());
            Set<String> ids = byThread.get(before.threadId());
            if (ids != null && ids.remove(before.runId()) && ids.isEmpty()) {
                byThread.remove(before.threadId());
            }
            return;
        }
        runs.put(after.runId(), after);
        byThread.computeIfAbsent(after.threadId(), t -> new LinkedHashSet<>()).add(after.runId());
        if (after.status() == RunStatus.PENDING) {
            pending.add(after);
        } else if (after.status() == RunStatus.RUNNING) {
            running.put(after.threadId(), after.runId());
        }
    }

    private List<Run> ofThread(String threadId) {
        Set<String> ids = byThread.getOrDefault(threadId, Set.of());
        List<Run> out = new ArrayList<>(ids.size());
        ids.forEach(id -> out.add(runs.get(id)));
        return out;
    }

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
                put(null, stored);
                return stored;
            }
        });
    }

    @Override
    public Uni<List<Run>> claim(String workerId, Instant now, int limit) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                List<Run> due = new ArrayList<>();
                Set<String> threads = new HashSet<>();
                for (Run r : pending) {
                    if (due.size() == limit) {
                        break;
                    }
                    if ((r.notBefore() == null || !r.notBefore().isAfter(now)) && !running.containsKey(r.threadId())
                            && threads.add(r.threadId())) {
                        due.add(r);
                    }
                }
                List<Run> claimed = new ArrayList<>(due.size());
                for (Run r : due) {
                    Run c = r.claimedBy(workerId, now);
                    put(r, c);
                    claimed.add(c);
                }
                return claimed;
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

    @Override
    public Uni<Integer> countInflight(String owner) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                int n = 0;
                for (Run r : pending) {
                    n += ownedBy(r, owner) ? 1 : 0;
                }
                for (String id : running.values()) {
                    n += ownedBy(runs.get(id), owner) ? 1 : 0;
                }
                return n;
            }
        });
    }

    private static boolean ownedBy(Run r, String owner) {
        return owner == null || owner.equals(r.metadata().get(io.conduit.auth.Principal.OWNER));
    }

    @Override
    public Uni<Boolean> finish(String runId, String workerId, RunStatus status, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null || r.status() != RunStatus.RUNNING || !Objects.equals(workerId, r.workerId())) {
                    return false;
                }
                put(r, r.withStatus(status, at));
                return true;
            }
        });
    }

    @Override
    public Uni<Boolean> release(String runId, String workerId, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null || r.status() != RunStatus.RUNNING || !Objects.equals(workerId, r.workerId())) {
                    return false;
                }
                put(r, requeued(r, at));
                return true;
            }
        });
    }

    /** A run back to pending is held by no worker any more. */
    private static Run requeued(Run r, Instant at) {
        return new Run(r.runId(), r.threadId(), r.assistantId(), RunStatus.PENDING, r.metadata(), r.multitaskStrategy(), r.spec(),
                r.createdAt(), at, r.notBefore(), null);
    }

    @Override
    public Uni<Boolean> cancelPending(String runId, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null || r.status() != RunStatus.PENDING) {
                    return false;
                }
                put(r, r.withStatus(RunStatus.INTERRUPTED, at));
                return true;
            }
        });
    }

    @Override
    public Uni<Boolean> delete(String runId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Run r = runs.get(runId);
                if (r == null) {
                    return false;
                }
                put(r, null);
                return true;
            }
        });
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                ofThread(threadId).forEach(r -> put(r, null));
                return null;
            }
        });
    }

    @Override
    public Uni<List<String>> renew(String workerId, Collection<String> runIds, Instant at) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                List<String> renewed = new ArrayList<>();
                for (String id : runIds) {
                    Run r = runs.get(id);
                    if (r != null && r.status() == RunStatus.RUNNING && Objects.equals(workerId, r.workerId())) {
                        put(r, r.withStatus(RunStatus.RUNNING, at));
                        renewed.add(id);
                    }
                }
                return renewed;
            }
        });
    }

    @Override
    public Uni<List<Run>> requeueOrphans(Worker live, Collection<String> held, Instant staleBefore, Instant at) {
        Set<String> mine = Set.copyOf(held);
        Predicate<Run> orphan = r -> r.status() == RunStatus.RUNNING && !mine.contains(r.runId())
                && (r.updatedAt().isBefore(staleBefore) || live.formerSelf(r.workerId()));
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                List<Run> requeued = new ArrayList<>();
                for (Run r : running.values().stream().map(runs::get).filter(orphan).sorted(OLDEST_FIRST).toList()) {
                    Run again = requeued(r, at);
                    put(r, again);
                    requeued.add(again);
                }
                return requeued;
            }
        });
    }
}
