package io.conduit.llm.simulator;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * Paces a stream like a model: {@code time-to-first-token} before the first item, {@code inter-token-delay} before
 * each further one. Waits are Vert.x timers, so no thread is held while waiting; a zero delay sets no timer at all,
 * so a benchmark measures the service, not a clock.
 */
@Singleton
class TokenPacing {

    /** Completes after a delay; an interface so that tests can see which delays were asked for without waiting. */
    interface Timer {
        Uni<Void> after(Duration delay);
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
        if (first.isZero() && between.isZero()) {
            return Multi.createFrom().iterable(items);
        }
        // one item at a time: the next wait starts only once the item before has been taken
        return Multi.createFrom().range(0, items.size()).onItem().transformToUniAndConcatenate(i -> {
            Duration wait = i == 0 ? first : between;
            return wait.isZero() ? Uni.createFrom().item(items.get(i)) : timer.after(wait).replaceWith(items.get(i));
        });
    }

    /** A Vert.x timer on the caller's context (the request's event loop); cancelled if the client goes away first. */
    static Timer vertxTimer(Vertx vertx) {
        return delay -> Uni.createFrom().emitter(e -> {
            long id = vertx.setTimer(Math.max(1, delay.toMillis()), t -> e.complete(null));
            e.onTermination(() -> vertx.cancelTimer(id));
        });
    }
}
