package io.conduit.llm.simulator;

import io.smallrye.mutiny.Multi;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * Paces a stream like a model: {@code time-to-first-token} before the first item, {@code inter-token-delay} before
 * each further one. Waits are Vert.x timers, so no thread is held while waiting ({@link PacedItems}); a zero delay sets no timer at all,
 * so a benchmark measures the service, not a clock.
 */
@Singleton
class TokenPacing {

    /**
     * Runs {@code then} after a delay and returns what cancels it; an interface so that tests can see which delays were
     * asked for without waiting.
     */
    interface Timer {
        Runnable after(Duration delay, Runnable then);
    }

    private final Duration first;
    private final Duration between;
    private final Timer timer;

    @Inject
    TokenPacing(SimulatorConfig config, Vertx vertx) {
        this(config.timeToFirstToken(), config.interTokenDelay(), vertxTimer(vertx));
    }

    TokenPacing(Duration first, Duration between, Timer timer) {
        this.first = first;
        this.between = between;
        this.timer = timer;
    }

    <T> Multi<T> pace(List<T> items) {
        return new PacedItems<>(items, first, between, timer); // with zero waits, items go as wanted, with no timer
    }

    /** A Vert.x timer on the caller's context (the request's event loop); cancelled if the client goes away first. */
    static Timer vertxTimer(Vertx vertx) {
        return (delay, then) -> {
            long id = vertx.setTimer(Math.max(1, delay.toMillis()), t -> then.run());
            return () -> vertx.cancelTimer(id);
        };
    }
}
