package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Thread records (the checkpoints live in the Checkpointer). Metadata filters match by JSON containment. */
public interface ThreadStore {

    /** The columns a search sorts by. */
    Set<String> SORTS = Set.of("thread_id", "status", "created_at", "updated_at");

    /** Creates a thread, or returns the existing one when {@code doNothingIfExists}; else fails with ThreadExistsException. */
    Uni<ThreadRecord> create(String threadId, Map<String, Object> metadata, Instant expiresAt, boolean doNothingIfExists, Instant now);

    Uni<Optional<ThreadRecord>> get(String threadId);

    /** {@code sortBy}: thread_id, status, created_at, updated_at; {@code sortOrder}: asc or desc. */
    Uni<List<ThreadRecord>> search(Map<String, Object> metadata, ThreadStatus status, int limit, int offset, String sortBy, String sortOrder);

    Uni<Long> count(Map<String, Object> metadata, ThreadStatus status);

    /** Merges {@code metadata} into the thread's (keys replaced, others kept); empty when the thread does not exist. */
    Uni<Optional<ThreadRecord>> patchMetadata(String threadId, Map<String, Object> metadata, Instant now);

    /**
     * A compare-and-set of {@link #patchMetadata}: merges {@code metadata} only while the thread's value under
     * {@code key} is still {@code expected} (what the caller read; null: unset) or already {@code metadata}'s, in one
     * atomic write, so that of simultaneous writers of different values exactly one wins. Returns the thread as it is
     * after the call (without the patch when another value won); empty when the thread does not exist.
     */
    Uni<Optional<ThreadRecord>> patchMetadataIf(String threadId, String key, String expected, Map<String, Object> metadata, Instant now);

    Uni<Void> setStatus(String threadId, ThreadStatus status, Instant now);

    Uni<Boolean> delete(String threadId);

    /**
     * Reserves {@code size} event sequence numbers for the thread and returns the first: numbers from successive
     * calls never overlap and always increase, across restarts (in Postgres the reservation is persisted), so the
     * thread's event ids stay unique for its whole life.
     */
    Uni<Long> reserveSeq(String threadId, int size);

    /**
     * A run begins on the thread: marks it busy and reserves {@code size} sequence numbers (as {@link #reserveSeq}),
     * in one write, since it sits between a run's claim and its first token. Fails with
     * {@link java.util.NoSuchElementException} when the thread does not exist.
     */
    Uni<Long> beginRun(String threadId, int size, Instant now);

    /** Threads whose {@code expiresAt} has passed. */
    Uni<List<String>> expired(Instant now, int limit);
}
