package io.conduit.runs;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A periodic job on the shared stores that one replica does for the whole cluster (deleting threads past their time to
 * live, forgetting old token counts, sweeping the long-term store's lapsed items): done by every replica, it would be
 * the same work N times over, racing itself. A bean of this type is run by the cluster's housekeeper (the replica that
 * holds the {@link HousekeeperRole}), at most once every {@code every}.
 *
 * @param name  what it does, for the log
 * @param every how often it is due
 * @param work  one round of it; its item (how much it did) is ignored, a failure is logged and the next round tries again
 */
public record Chore(String name, Duration every, Supplier<Uni<?>> work) {
}
