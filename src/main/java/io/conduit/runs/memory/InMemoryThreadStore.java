package io.conduit.runs.memory;

import io.conduit.runs.JsonMaps;
import io.conduit.runs.SortOrder;
import io.conduit.runs.ThreadExistsException;
import io.conduit.runs.ThreadRecord;
import io.conduit.runs.ThreadStatus;
import io.conduit.runs.ThreadStore;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/** Thread records in this JVM (the memory store of the service). Every access holds the store's lock: simple and enough. */
public final class InMemoryThreadStore implements ThreadStore {


    private final Map<String, ThreadRecord> threads = new HashMap<>();
    /** The next event sequence number of each thread; numbers start at 1. */
    private final Map<String, Long> nextSeq = new HashMap<>();

    @Override
    public Uni<ThreadRecord> create(String threadId, Map<String, Object> metadata, Instant expiresAt, boolean doNothingIfExists, Instant now) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                ThreadRecord existing = threads.get(threadId);
                if (existing != null) {
                    if (doNothingIfExists) {
                        return existing;
                    }
                    throw new ThreadExistsException(threadId);
                }
                ThreadRecord created = new ThreadRecord(threadId, JsonMaps.copy(metadata), ThreadStatus.IDLE, now, now, expiresAt);
                threads.put(threadId, created);
                nextSeq.put(threadId, 1L);
                return created;
            }
        });
    }

    @Override
    public Uni<Optional<ThreadRecord>> get(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return Optional.ofNullable(threads.get(threadId));
            }
        });
    }

    @Override
    public Uni<List<ThreadRecord>> search(Map<String, Object> metadata, ThreadStatus status, int limit, int offset, String sortBy, String sortOrder) {
        return Uni.createFrom().item(() -> {
            SortOrder sort = SortOrder.of(sortBy, sortOrder, SORTS);
            synchronized (this) {
                Map<String, Object> filter = JsonMaps.copy(metadata);
                return threads.values().stream()
                        .filter(t -> matches(t, filter, status))
                        .sorted(sort.apply(comparator(sort.column())))
                        .skip(offset).limit(limit).toList();
            }
        });
    }

    private static Comparator<ThreadRecord> comparator(String column) {
        Comparator<ThreadRecord> byColumn = switch (column) {
            case "thread_id" -> Comparator.comparing(ThreadRecord::threadId);
            case "status" -> Comparator.comparing(t -> t.status().wire());
            case "updated_at" -> Comparator.comparing(ThreadRecord::updatedAt);
            default -> Comparator.comparing(ThreadRecord::createdAt);
        };
        return byColumn.thenComparing(ThreadRecord::threadId);
    }

    /** {@code filter}: the metadata filter as stored values are (a JSON copy), so numbers compare alike. */
    private static boolean matches(ThreadRecord t, Map<String, Object> filter, ThreadStatus status) {
        return (status == null || t.status() == status) && JsonContainment.matches(t.metadata(), filter);
    }

    @Override
    public Uni<Long> count(Map<String, Object> metadata, ThreadStatus status) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Map<String, Object> filter = JsonMaps.copy(metadata);
                return threads.values().stream().filter(t -> matches(t, filter, status)).count();
            }
        });
    }

    @Override
    public Uni<Optional<ThreadRecord>> patchMetadata(String threadId, Map<String, Object> metadata, Instant now) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                ThreadRecord t = threads.get(threadId);
                if (t == null) {
                    return Optional.empty();
                }
                return Optional.of(merged(t, metadata, now));
            }
        });
    }

    /** Stores and returns {@code t} with {@code metadata} merged in; the caller holds the lock. */
    private ThreadRecord merged(ThreadRecord t, Map<String, Object> metadata, Instant now) {
        Map<String, Object> merged = new LinkedHashMap<>(t.metadata());
        merged.putAll(JsonMaps.copy(metadata));
        ThreadRecord patched = new ThreadRecord(t.threadId(), merged, t.status(), t.createdAt(), now, t.expiresAt());
        threads.put(t.threadId(), patched);
        return patched;
    }

    @Override
    public Uni<Optional<ThreadRecord>> patchMetadataIf(String threadId, String key, String expected, Map<String, Object> metadata,
                                                       Instant now) {
        return Uni.createFrom().item(() -> {
            // under the store's lock: the read, the comparison and the write are one step
            synchronized (this) {
                ThreadRecord t = threads.get(threadId);
                if (t == null) {
                    return Optional.empty();
                }
                String current = text(t.metadata().get(key));
                if (!Objects.equals(current, expected) && !Objects.equals(current, text(metadata.get(key)))) {
                    return Optional.of(t);
                }
                return Optional.of(merged(t, metadata, now));
            }
        });
    }

    /** A metadata value as Postgres's {@code ->>} gives it: null for none or JSON null, else its text. */
    private static String text(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    @Override
    public Uni<Void> setStatus(String threadId, ThreadStatus status, Instant now) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                threads.computeIfPresent(threadId, (id, t) -> new ThreadRecord(id, t.metadata(), status, t.createdAt(), now, t.expiresAt()));
                return null;
            }
        });
    }

    @Override
    public Uni<Boolean> delete(String threadId) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                nextSeq.remove(threadId);
                return threads.remove(threadId) != null;
            }
        });
    }

    @Override
    public Uni<Long> beginRun(String threadId, int size, Instant now) {
        return setStatus(threadId, ThreadStatus.BUSY, now).chain(() -> reserveSeq(threadId, size));
    }

    @Override
    public Uni<Long> reserveSeq(String threadId, int size) {
        if (size < 1) {
            return Uni.createFrom().failure(new IllegalArgumentException("reserve at least one sequence number, not " + size));
        }
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                Long first = nextSeq.get(threadId);
                if (first == null) {
                    throw new NoSuchElementException("thread " + threadId + " does not exist");
                }
                nextSeq.put(threadId, first + size);
                return first;
            }
        });
    }

    @Override
    public Uni<List<String>> expired(Instant now, int limit) {
        return Uni.createFrom().item(() -> {
            synchronized (this) {
                return threads.values().stream()
                        .filter(t -> t.expiresAt() != null && !t.expiresAt().isAfter(now))
                        .sorted(Comparator.comparing(ThreadRecord::expiresAt).thenComparing(ThreadRecord::threadId))
                        .map(ThreadRecord::threadId).limit(limit).toList();
            }
        });
    }
}
