package io.conduit.runs;

import io.conduit.kernel.TimeOrderedIds;

/**
 * Who holds a running run: one incarnation of a replica. The replica is stable across the process's restarts (its
 * host and port: the pod's name in Kubernetes); the incarnation is new at every start. A restarted process therefore
 * knows that the runs held by its replica's earlier incarnations have no live worker, and takes them back at once
 * instead of waiting for their lease to lapse. Two live processes must never share a replica id: the replica's port,
 * once bound, proves it ({@link #unproven} until then).
 *
 * @param replica the replica's stable id; null: not known (no former self is recognised)
 * @param id      this incarnation, {@code <replica>/<boot id>}: what a run record keeps as its {@code worker_id}
 */
public record Worker(String replica, String id) {

    public Worker {
        if (replica != null && !id.startsWith(replica + "/")) {
            throw new IllegalArgumentException("a worker id starts with its replica and a slash: " + id);
        }
    }

    /** A new incarnation of {@code replica}: its boot id is time-ordered, so incarnations sort by start. */
    public static Worker boot(String replica) {
        return new Worker(replica, replica + "/" + TimeOrderedIds.next());
    }

    /**
     * This incarnation without its claim to a replica: it knows no former self. What recovery uses until the replica's
     * port is bound, which is what proves no other live process has this replica id.
     */
    public Worker unproven() {
        return new Worker(null, id);
    }

    /** What every incarnation's id of this replica starts with; null when the replica is not known ({@link #unproven}). */
    public String prefix() {
        return replica == null ? null : replica + "/";
    }

    /** Whether {@code workerId} is another incarnation of this replica, which can only be one that is gone. */
    public boolean formerSelf(String workerId) {
        return replica != null && workerId != null && !workerId.equals(id) && workerId.startsWith(prefix());
    }
}
