package io.conduit.tools;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * At most {@code max} tool calls run at once; the others wait in line (in order) without holding a thread, and start
 * as running ones end. This is the tools' backpressure: a burst of calls queues here instead of piling up on the
 * services the tools reach. A waiting call that is cancelled leaves the line; a running one frees its place.
 */
final class CallLimit {

    private static final Cancellable CANCELLED = () -> { };

    private final int max;
    private final Deque<Runnable> waiting = new ArrayDeque<>();
    private int running;

    CallLimit(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("conduit.tools.max-concurrent must be at least 1");
        }
        this.max = max;
    }

    <T> Uni<T> run(Supplier<Uni<T>> work) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicReference<Cancellable> started = new AtomicReference<>();
            Runnable start = () -> {
                Cancellable call = Uni.createFrom().<T>deferred(work::get)
                        .onTermination().invoke(this::release)
                        .subscribe().with(emitter::complete, emitter::fail);
                if (!started.compareAndSet(null, call)) {
                    call.cancel(); // cancelled while it was being started
                }
            };
            // runs on completion too, when there is nothing left to cancel
            emitter.onTermination(() -> {
                if (!leaveLine(start)) {
                    Cancellable call = started.getAndSet(CANCELLED);
                    if (call != null) {
                        call.cancel();
                    }
                }
            });
            enter(start);
        });
    }

    /** Calls running now (for tests and metrics). */
    synchronized int running() {
        return running;
    }

    private void enter(Runnable start) {
        synchronized (this) {
            if (running >= max) {
                waiting.addLast(start);
                return;
            }
            running++;
        }
        start.run();
    }

    private synchronized boolean leaveLine(Runnable start) {
        return waiting.remove(start);
    }

    private void release() {
        Runnable next;
        synchronized (this) {
            next = waiting.pollFirst();
            if (next == null) {
                running--;
                return;
            }
        }
        // the place passes straight to the next in line: running stays the same
        next.run();
    }
}
