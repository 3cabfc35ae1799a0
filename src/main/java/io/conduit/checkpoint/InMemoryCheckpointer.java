package io.conduit.checkpoint;

import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps threads in this JVM: the embedded default for development and tests. It stores the same delta records as
 * the Postgres store (live objects instead of JSON), so it behaves the same under the contract tests.
 */
public final class InMemoryCheckpointer implements Checkpointer {

    private final Map<String, Map<String, Namespace>> threads = new ConcurrentHashMap<>();

    /** One namespace of a thread; every access holds its lock, which is never held across an await. */
    private static final class Namespace {
        String head;
        final NavigableMap<String, Checkpoint> checkpoints = new TreeMap<>();
        final Map<String, Map<String, Stored>> snapshots = new HashMap<>();
        final Map<String, Map<String, PendingWrite>> writes = new HashMap<>();
    }

    private Namespace ns(String threadId, String ns, boolean create) {
        if (!create) {
            Map<String, Namespace> t = threads.get(threadId);
            return t == null ? null : t.get(ns);
        }
        return threads.computeIfAbsent(threadId, k -> new ConcurrentHashMap<>()).computeIfAbsent(ns, k -> new Namespace());
    }

    @Override
    public Uni<Void> put(Checkpoint checkpoint, String expectedHead) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(checkpoint.threadId(), checkpoint.ns(), true);
            synchronized (n) {
                if (!Objects.equals(n.head, expectedHead)) {
                    throw new CheckpointConflictException(checkpoint.threadId(), checkpoint.ns(), expectedHead);
                }
                n.checkpoints.put(checkpoint.id(), checkpoint);
                n.head = checkpoint.id();
            }
            return null;
        });
    }

    @Override
    public Uni<Void> putWrites(String threadId, String ns, String checkpointId, List<PendingWrite> writes) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, true);
            synchronized (n) {
                Map<String, PendingWrite> byKey = n.writes.computeIfAbsent(checkpointId, k -> new java.util.LinkedHashMap<>());
                for (PendingWrite w : writes) {
                    byKey.put(w.taskId() + "\u0000" + w.idx(), w);
                }
            }
            return null;
        });
    }

    @Override
    public Uni<Void> deleteWrites(String threadId, String ns, String checkpointId) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n != null) {
                synchronized (n) {
                    n.writes.remove(checkpointId);
                }
            }
            return null;
        });
    }

    @Override
    public Uni<Optional<Head>> head(String threadId, String ns) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n == null) {
                return Optional.empty();
            }
            synchronized (n) {
                return n.head == null ? Optional.empty() : Optional.of(headOf(n, n.head));
            }
        });
    }

    @Override
    public Uni<Optional<Head>> get(String threadId, String ns, String checkpointId) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n == null) {
                return Optional.empty();
            }
            synchronized (n) {
                return n.checkpoints.containsKey(checkpointId) ? Optional.of(headOf(n, checkpointId)) : Optional.empty();
            }
        });
    }

    private static Head headOf(Namespace n, String id) {
        Map<String, PendingWrite> w = n.writes.get(id);
        List<PendingWrite> writes = w == null ? List.of() : List.copyOf(w.values());
        return new Head(n.checkpoints.get(id), writes);
    }

    @Override
    public Uni<Optional<CheckpointChain>> chain(String threadId, String ns, String checkpointId) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n == null) {
                return Optional.empty();
            }
            synchronized (n) {
                Checkpoint target = n.checkpoints.get(checkpointId);
                if (target == null) {
                    return Optional.empty();
                }
                List<Checkpoint> since = new ArrayList<>();
                Map<String, Stored> base = Map.of();
                for (Checkpoint c = target; c != null; c = c.parentId() == null ? null : n.checkpoints.get(c.parentId())) {
                    Map<String, Stored> snapshot = n.snapshots.get(c.id());
                    if (snapshot != null) {
                        base = snapshot;
                        break;
                    }
                    since.add(c);
                }
                Collections.reverse(since);
                return Optional.of(new CheckpointChain(target, base, since));
            }
        });
    }

    @Override
    public Uni<List<Checkpoint>> list(String threadId, String ns, int limit, String before) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n == null) {
                return List.of();
            }
            synchronized (n) {
                NavigableMap<String, Checkpoint> view = before == null ? n.checkpoints : n.checkpoints.headMap(before, false);
                return view.descendingMap().values().stream().limit(limit).toList();
            }
        });
    }

    @Override
    public Uni<Void> putSnapshot(String threadId, String ns, String checkpointId, Map<String, Stored> values) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, true);
            synchronized (n) {
                if (n.checkpoints.containsKey(checkpointId)) {
                    // as the Postgres store: a namespace keeps its newest snapshot only
                    n.snapshots.keySet().removeIf(id -> id.compareTo(checkpointId) < 0);
                    n.snapshots.put(checkpointId, Map.copyOf(values));
                }
            }
            return null;
        });
    }

    @Override
    public Uni<Long> prune(String threadId, String ns, String keepFrom) {
        return Uni.createFrom().item(() -> {
            Namespace n = ns(threadId, ns, false);
            if (n == null) {
                throw new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state");
            }
            synchronized (n) {
                if (!n.snapshots.containsKey(keepFrom)) {
                    throw new IllegalStateException("checkpoint " + keepFrom + " has no snapshot; prune would lose state");
                }
                Map<String, Checkpoint> old = n.checkpoints.headMap(keepFrom, false);
                long count = old.size();
                for (String id : List.copyOf(old.keySet())) {
                    n.checkpoints.remove(id);
                    n.snapshots.remove(id);
                    n.writes.remove(id);
                }
                return count;
            }
        });
    }

    @Override
    public Uni<Long> deleteRun(String threadId, String runId) {
        return Uni.createFrom().item(() -> {
            Map<String, Namespace> thread = threads.get(threadId);
            if (thread == null || runId == null) {
                return 0L;
            }
            // checked in every namespace before anything is deleted, as the Postgres store does in one statement
            for (Namespace n : thread.values()) {
                synchronized (n) {
                    Set<String> ofRun = idsOfRun(n, runId);
                    for (Checkpoint c : n.checkpoints.values()) {
                        if (!runId.equals(c.runId()) && c.parentId() != null && ofRun.contains(c.parentId())) {
                            throw builtOn(threadId, runId, c.id());
                        }
                    }
                }
            }
            long deleted = 0;
            for (Namespace n : thread.values()) {
                synchronized (n) {
                    Set<String> ofRun = idsOfRun(n, runId);
                    for (String id : ofRun) {
                        n.checkpoints.remove(id);
                        n.snapshots.remove(id);
                        n.writes.remove(id);
                    }
                    if (ofRun.contains(n.head)) {
                        // an emptied namespace keeps its entry with no head: it reads as absent and can start again
                        n.head = n.checkpoints.isEmpty() ? null : n.checkpoints.lastKey();
                    }
                    deleted += ofRun.size();
                }
            }
            return deleted;
        });
    }

    private static Set<String> idsOfRun(Namespace n, String runId) {
        Set<String> ids = new HashSet<>();
        n.checkpoints.values().forEach(c -> {
            if (runId.equals(c.runId())) {
                ids.add(c.id());
            }
        });
        return ids;
    }

    private static IllegalStateException builtOn(String threadId, String runId, String checkpointId) {
        return new IllegalStateException("thread " + threadId + ": checkpoint " + checkpointId
                + " of another run builds on run " + runId + "; roll that back first");
    }

    @Override
    public Uni<Void> deleteThread(String threadId) {
        return Uni.createFrom().item(() -> {
            threads.remove(threadId);
            return null;
        });
    }
}
