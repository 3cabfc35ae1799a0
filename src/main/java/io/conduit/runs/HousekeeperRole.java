package io.conduit.runs;

import io.smallrye.mutiny.Uni;

/**
 * Who does the cluster's {@link Chore}s: one replica at a time. On a shared store the role is a lock there (Postgres:
 * an advisory lock held by one replica's session), taken by whichever replica asks first and kept until it stops or
 * loses its connection; in memory the process is the whole cluster and always holds it ({@link #ALONE}).
 */
public interface HousekeeperRole {

    /** This process is the only replica: the stores are its own. */
    HousekeeperRole ALONE = new HousekeeperRole() {
        @Override
        public Uni<Boolean> hold() {
            return Uni.createFrom().item(true);
        }

        @Override
        public Uni<Void> release() {
            return Uni.createFrom().voidItem();
        }
    };

    /**
     * Whether this replica holds the role now, taking it when nobody does. Never fails: a store out of reach is
     * {@code false} (a replica that cannot reach the store cannot do its chores either).
     */
    Uni<Boolean> hold();

    /** Gives the role up (the replica stops), for another replica to take at its next look. */
    Uni<Void> release();
}
