package io.conduit.graph;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Orders a run's writes to the store. Each write starts after the previous one finished, so they are never
 * reordered; after a failure the later writes are not attempted (a gap in a thread's history is worse than a
 * shorter one). In {@code SYNC} mode a submit completes when its write is stored; in {@code ASYNC} mode at once,
 * and {@link #flush} waits for everything queued. A queue may start behind another run's ({@link #after}): its
 * writes then wait for that run's, whatever became of them.
 */
final class WriteQueue {

    private final boolean sync;
    private final WriteFence fence;
    /** Volatile so that {@link #after} and {@link #whenSettled} read it without the lock (they are called under others). */
    private volatile CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);

    WriteQueue(Durability durability, WriteFence fence) {
        this.sync = durability == Durability.SYNC;
        this.fence = fence;
    }

    /** A queue whose writes come after everything {@code before} has queued so far (stored or failed). */
    static WriteQueue after(WriteQueue before, Durability durability, WriteFence fence) {
        WriteQueue q = new WriteQueue(durability, fence);
        if (before != null) {
            q.tail = before.tail.handle((v, failure) -> null); // the other run's failure is not this run's
        }
        return q;
    }

    /**
     * Runs {@code action} once every write queued so far has been attempted; at once (on this thread) if they have
     * been. Never under the queue's lock, as the action may take others.
     */
    void whenSettled(Runnable action) {
        tail.whenComplete((v, failure) -> action.run());
    }

    synchronized Uni<Void> submit(Supplier<Uni<Void>> write) {
        CompletableFuture<Void> next = tail.thenCompose(x -> fenced(write).subscribeAsCompletionStage());
        tail = next;
        return sync ? Uni.createFrom().completionStage(next) : Uni.createFrom().voidItem();
    }

    private Uni<Void> fenced(Supplier<Uni<Void>> write) {
        return fence == WriteFence.NONE ? write.get() : fence.admit().chain(write::get);
    }

    /** Completes when every write submitted so far is stored, or fails with the first write that failed. */
    synchronized Uni<Void> flush() {
        return Uni.createFrom().completionStage(tail);
    }

    /** The failure of an earlier write, if one failed; checked between steps in {@code ASYNC} mode. */
    synchronized Throwable failure() {
        if (!tail.isCompletedExceptionally()) {
            return null;
        }
        try {
            tail.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause();
        } catch (RuntimeException e) {
            return e;
        }
    }
}
