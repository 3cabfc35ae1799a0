package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.LocalDate;

/**
 * Model tokens each principal's runs used, per UTC day: what {@code conduit.limits.per-principal.tokens-per-day} is
 * checked against. Kept where threads are (memory or Postgres), so every replica adds to and reads the same count.
 */
public interface TokenUsageStore {

    /** Adds {@code tokens} to what {@code principal} used on {@code day}; its total for the day after the addition. */
    Uni<Long> add(String principal, LocalDate day, long tokens);

    /** What {@code principal} used on {@code day}; 0 when nothing was recorded. */
    Uni<Long> used(String principal, LocalDate day);

    /** Forgets the days before {@code day} (no budget reads them again); how many principal-days it forgot. */
    Uni<Integer> forgetBefore(LocalDate day);
}
