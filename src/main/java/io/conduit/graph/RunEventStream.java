package io.conduit.graph;

import io.smallrye.mutiny.helpers.Subscriptions;
import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A run's events as a {@code Multi}: emitted from wherever the run is (an event loop, a worker), in order, buffered
 * while the subscriber asks for none, never waiting for it. What Mutiny's buffering emitter does, in one layer: an event
 * emitted while nothing is queued and the subscriber has demand goes straight to it, with no queue; a run's tokens are
 * most of its events, and the two layers (serializing, then buffering) cost a tenth of the server's CPU per streamed
 * token. Termination (complete, fail or cancel) runs the callback once.
 */
final class RunEventStream extends AbstractMulti<GraphEvent> {

    private final Consumer<Emitter> start;

    RunEventStream(Consumer<Emitter> start) {
        this.start = start;
    }

    @Override
    public void subscribe(MultiSubscriber<? super GraphEvent> downstream) {
        Emitter e = new Emitter(downstream);
        downstream.onSubscribe(e);
        try {
            start.accept(e);
        } catch (RuntimeException failure) {
            e.fail(failure);
        }
    }

    /** Where a run writes its events. Safe from any thread. */
    static final class Emitter implements Flow.Subscription {

        private final MultiSubscriber<? super GraphEvent> downstream;
        private final Queue<GraphEvent> queue = new ConcurrentLinkedQueue<>();
        private final AtomicLong requested = new AtomicLong();
        /** Serializes delivery: whoever raises it from 0 delivers, the others leave their work for it. */
        private final AtomicInteger wip = new AtomicInteger();
        private final AtomicBoolean terminated = new AtomicBoolean();
        private final AtomicBoolean callbackRan = new AtomicBoolean();
        private volatile boolean done;
        private volatile boolean cancelled;
        private volatile Throwable failure;
        private volatile Runnable onTermination;

        Emitter(MultiSubscriber<? super GraphEvent> downstream) {
            this.downstream = downstream;
        }

        /** Runs {@code action} once the stream ends or is cancelled; at once if it already has (as Mutiny's emitters do). */
        void onTermination(Runnable action) {
            onTermination = action;
            if (terminated.get()) {
                runOnTermination();
            }
        }

        void emit(GraphEvent event) {
            if (done || cancelled) {
                return;
            }
            if (wip.get() == 0 && wip.compareAndSet(0, 1)) {
                if (queue.isEmpty() && requested.get() > 0) {
                    downstream.onItem(event); // the fast path: nothing waits, and the subscriber wants it
                    if (requested.get() != Long.MAX_VALUE) {
                        requested.decrementAndGet();
                    }
                    if (wip.decrementAndGet() == 0) {
                        return;
                    }
                } else {
                    queue.offer(event);
                }
            } else {
                queue.offer(event);
                if (wip.getAndIncrement() != 0) {
                    return;
                }
            }
            drainLoop();
        }

        void complete() {
            done = true;
            drain();
        }

        void fail(Throwable t) {
            if (done) {
                return;
            }
            failure = t;
            done = true;
            drain();
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                fail(Subscriptions.getInvalidRequestException());
                return;
            }
            Subscriptions.add(requested, n);
            drain();
        }

        @Override
        public void cancel() {
            cancelled = true;
            if (terminated.compareAndSet(false, true)) {
                runOnTermination();
            }
            if (wip.getAndIncrement() == 0) {
                queue.clear();
            }
        }

        private void drain() {
            if (wip.getAndIncrement() == 0) {
                drainLoop();
            }
        }

        private void drainLoop() {
            int missed = 1;
            do {
                long wanted = requested.get();
                long sent = 0;
                while (sent != wanted) {
                    if (cancelled) {
                        queue.clear();
                        return;
                    }
                    boolean over = done;
                    GraphEvent e = queue.poll();
                    if (e == null) {
                        if (over) {
                            end();
                            return;
                        }
                        break;
                    }
                    downstream.onItem(e);
                    sent++;
                }
                if (cancelled) {
                    queue.clear();
                    return;
                }
                if (done && queue.isEmpty()) {
                    end();
                    return;
                }
                if (sent != 0 && wanted != Long.MAX_VALUE) {
                    requested.addAndGet(-sent);
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }

        /** The subscriber is told the end, then the callback runs (as Mutiny's emitters do). */
        private void end() {
            if (!terminated.compareAndSet(false, true)) {
                return;
            }
            try {
                Throwable t = failure;
                if (t != null) {
                    downstream.onFailure(t);
                } else {
                    downstream.onCompletion();
                }
            } finally {
                runOnTermination();
            }
        }

        private void runOnTermination() {
            Runnable action = onTermination;
            if (action != null && callbackRan.compareAndSet(false, true)) {
                action.run();
            }
        }
    }
}
