package io.conduit.llm;

import io.vertx.core.Vertx;
import java.time.Duration;

/**
 * Calls {@code onIdle} once a stream has been silent for {@code timeout}. One Vert.x timer per stream, re-armed only
 * when it fires: Mutiny's {@code ifNoItem()} arms a task per item on a scheduler that keeps cancelled tasks until
 * they fall due, which held ~20 dead tasks per model call for a minute (docs/benchmarks.md, "How to read them").
 */
final class IdleTimeout {

    private final Vertx vertx;
    private final long timeoutNanos;
    private final Runnable onIdle;
    private volatile long lastNanos;
    private volatile long timerId = -1;
    private volatile boolean stopped;

    IdleTimeout(Vertx vertx, Duration timeout, Runnable onIdle) {
        this.vertx = vertx;
        this.timeoutNanos = timeout.toNanos();
        this.onIdle = onIdle;
    }

    void start() {
        lastNanos = System.nanoTime();
        arm(timeoutNanos);
    }

    /** The stream showed a sign of life. */
    void touch() {
        lastNanos = System.nanoTime();
    }

    void stop() {
        stopped = true;
        long id = timerId;
        if (id >= 0) {
            vertx.cancelTimer(id);
        }
    }

    private void arm(long delayNanos) {
        timerId = vertx.setTimer(Math.max(1, delayNanos / 1_000_000), id -> check());
    }

    private void check() {
        if (stopped) {
            return;
        }
        long silent = System.nanoTime() - lastNanos;
        if (silent >= timeoutNanos) {
            stopped = true;
            onIdle.run();
        } else {
            arm(timeoutNanos - silent);
        }
    }
}
