package io.conduit.graph;

import io.smallrye.mutiny.Uni;

/**
 * Admits a run's writes to the store: each write waits for it, and is not attempted when it fails. Whoever runs the
 * graph on a lease checks here that it still holds the run: a process paused past its lease (a long GC, a frozen
 * node, a lost network) may find another process resumed the run meanwhile, and must not write over it.
 */
@FunctionalInterface
public interface WriteFence {

    /** Admits every write. */
    WriteFence NONE = Uni.createFrom()::voidItem;

    /** Completes to admit the next write; fails to refuse it (the failure becomes the write's). */
    Uni<Void> admit();
}
