package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Crons, kept where threads are (memory or Postgres), so every replica schedules the same ones. A tick is claimed
 * once: {@link #claimDue} hands each due cron to one claimer only and moves its next tick past now. A tick is run at
 * most once, not exactly once: the claim is stored before the run is submitted, so a crash in between, or a refused
 * submission, skips that tick.
 */
public interface CronStore {

    /** The columns a search may sort by (LangGraph's {@code CronSortBy}). */
    Set<String> SORTS = Set.of("cron_id", "assistant_id", "thread_id", "created_at", "updated_at", "next_run_date");

    /**
     * What a search or count selects; a null field does not filter. {@code userId} non-null: only that owner's
     * (a restricted caller's search). {@code metadata}: each pair must be in the cron's metadata (JSON containment).
     */
    record Query(String assistantId, String threadId, Boolean enabled, Map<String, Object> metadata, String userId) {
    }

    Uni<Cron> create(Cron cron);

    Uni<Optional<Cron>> get(String cronId);

    /**
     * Replaces the cron {@code cronId} with {@code change} of it, read and written at once: no claim comes between (a
     * tick claimed meanwhile would otherwise have its next tick moved back and run twice). {@code change} may throw
     * (a bad field): nothing is written and the Uni fails with it. Empty when there is no such cron (deleted meanwhile).
     */
    Uni<Optional<Cron>> update(String cronId, UnaryOperator<Cron> change);

    /** Whether there was one to delete. */
    Uni<Boolean> delete(String cronId);

    /** Deletes a thread's crons (the thread is deleted); how many. */
    Uni<Integer> deleteForThread(String threadId);

    Uni<List<Cron>> search(Query query, SortOrder sort, int limit, int offset);

    Uni<Long> count(Query query);

    /**
     * Claims up to {@code limit} enabled crons whose next tick is at or before {@code now}, each for one claimer only
     * (claimers at once get different crons, or none), and moves each one's next tick to the first after {@code now}
     * ({@link Cron#claimed}): ticks missed while nothing claimed (no replica ran) are run once, not one by one.
     * Returns the crons as claimed (their next tick already moved). A due cron whose schedule or time zone can no
     * longer be computed is not returned and is stored with no next tick ({@link CronClaim}); the others are claimed.
     */
    Uni<List<Cron>> claimDue(Instant now, int limit);
}
