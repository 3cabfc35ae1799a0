package io.conduit.graph;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Runs a run's asynchronous steps one after another. It is a drain loop: a continuation scheduled while another is
 * running is picked up by the running one when it returns, so steps that complete synchronously do not deepen the
 * stack. It keeps the step in flight, so that cancelling the run cancels it.
 */
final class DrainLoop {

    private final RunOutput output;
    private final Consumer<Throwable> onFailure;
    private volatile Cancellable inflight;
    private final AtomicInteger wip = new AtomicInteger();
    private volatile Runnable next;

    DrainLoop(RunOutput output, Consumer<Throwable> onFailure) {
        this.output = output;
        this.onFailure = onFailure;
    }

    /** Subscribes to {@code uni} once the running continuation returns, unless the run has ended. */
    <T> void then(Uni<T> uni, Consumer<T> continuation) {
        schedule(() -> {
            if (!output.ended()) {
                Cancellable c = uni.subscribe().with(continuation, onFailure);
                inflight = c;
                if (output.ended()) {
                    c.cancel(); // cancelled while subscribing: onTermination saw the previous inflight, not this one
                }
            }
        });
    }

    /** Cancels the step in flight, if any. */
    void cancel() {
        Cancellable c = inflight;
        if (c != null) {
            c.cancel();
        }
    }

    private void schedule(Runnable r) {
        next = r;
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            Runnable c = next;
            next = null;
            if (c != null) {
                c.run();
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }
}
