package io.conduit.llm.simulator;

import io.smallrye.mutiny.helpers.Subscriptions;
import io.smallrye.mutiny.operators.AbstractMulti;
import io.smallrye.mutiny.subscription.MultiSubscriber;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A list's items, each after its wait, as {@link TokenPacing} asks: a wait starts only when an item is wanted, one at
 * a time, and a cancel stops the pending one. One timer and one emission per item, with no operator chain around it:
 * the simulator paces every token of every stream this way, so what it costs is counted against the server's CPU per
 * token in the streaming benchmark (a concat-map of one {@code Uni} per token cost a tenth of it).
 */
final class PacedItems<T> extends AbstractMulti<T> {

    private final List<T> items;
    private final Duration first;
    private final Duration between;
    private final TokenPacing.Timer timer;

    PacedItems(List<T> items, Duration first, Duration between, TokenPacing.Timer timer) {
        this.items = items;
        this.first = first;
        this.between = between;
        this.timer = timer;
    }

    @Override
    public void subscribe(MultiSubscriber<? super T> downstream) {
        downstream.onSubscribe(new Emission(downstream));
    }

    private final class Emission implements Flow.Subscription {

        private final MultiSubscriber<? super T> downstream;
        private final AtomicLong requested = new AtomicLong();
        /** Serializes {@link #drain}: a request, a timer and a cancel may come on different threads. */
        private final AtomicInteger wip = new AtomicInteger();
        private int next;
        /** Set while a wait is pending; {@code due} once it has passed and the item may go. */
        private volatile boolean waiting;
        private volatile boolean due;
        private volatile boolean over;
        private volatile Runnable cancelWait;

        Emission(MultiSubscriber<? super T> downstream) {
            this.downstream = downstream;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                downstream.onFailure(Subscriptions.getInvalidRequestException());
                return;
            }
            Subscriptions.add(requested, n);
            drain();
        }

        @Override
        public void cancel() {
            over = true;
            Runnable pending = cancelWait;
            if (pending != null) {
                pending.run();
            }
        }

        private void passed() {
            cancelWait = null;
            waiting = false;
            due = true;
            drain();
        }

        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                while (!over && !waiting && next < items.size() && requested.get() > 0) {
                    Duration wait = next == 0 ? first : between;
                    if (!due && !wait.isZero()) {
                        waiting = true;
                        cancelWait = timer.after(wait, this::passed);
                        break;
                    }
                    due = false;
                    requested.decrementAndGet();
                    downstream.onItem(items.get(next++));
                }
                if (!over && !waiting && next == items.size()) {
                    over = true;
                    downstream.onCompletion();
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }
    }
}
