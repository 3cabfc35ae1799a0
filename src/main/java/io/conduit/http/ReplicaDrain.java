package io.conduit.http;

import io.conduit.runs.ServingConfig;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.worker.RunExecutor;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The drain of a replica that shuts down (SIGTERM in a rolling deploy): its worker claims nothing more and the replica is
 * not ready; every run it executes is handed back at its next step boundary (its checkpoint stored), so another
 * replica, or this one restarted, resumes it at once; then every open stream ends with its transport's word to
 * reconnect ({@code server_shutting_down} over SSE, 1012 over WebSocket), after the events it had.
 *
 * <p>It starts on a JVM shutdown hook of its own, at the signal: Quarkus' graceful shutdown first waits for the
 * requests in flight (up to {@code quarkus.shutdown.timeout}), and open streams are such requests, so the drain must
 * not wait for the {@link ShutdownEvent}, which comes after. That event, which precedes the closing of the database
 * pool, waits for the drain to finish (bounded by {@code quarkus.shutdown.timeout}), and drains itself when the app
 * stops without a signal (tests, dev mode).
 */
@ApplicationScoped
public class ReplicaDrain {

    private static final Logger LOG = Logger.getLogger(ReplicaDrain.class);
    /** The drain's bound when {@code quarkus.shutdown.timeout} is not set: the step wait and this margin. */
    private static final Duration MARGIN = Duration.ofSeconds(5);

    private final RunExecutor executor;
    private final StreamPermits permits;
    private final Duration stepWait;
    private final Duration bound;
    private final AtomicBoolean started = new AtomicBoolean();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private Thread hook;

    ReplicaDrain(RunExecutor executor, StreamPermits permits, ServingConfig serving,
                 @ConfigProperty(name = "quarkus.shutdown.timeout") Optional<Duration> shutdownTimeout) {
        this.executor = executor;
        this.permits = permits;
        this.stepWait = serving.drainStepWait();
        this.bound = shutdownTimeout.orElse(stepWait.plus(MARGIN));
    }

    void start(@Observes StartupEvent e) {
        hook = new Thread(this::drainAndWait, "conduit-drain");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Before the other observers (and before the pool closes): the drain is done, or given up on, when it returns. */
    void stop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent e) {
        try {
            if (hook != null) {
                Runtime.getRuntime().removeShutdownHook(hook); // a stop without a signal: the hook must not outlive the app
            }
        } catch (IllegalStateException signalled) {
            // the JVM is shutting down: the hook runs the drain already, and it is waited for below
        }
        drainAndWait();
    }

    /** Starts the drain once; completes when the runs are handed back and the streams told. */
    public CompletableFuture<Void> drain() {
        if (!started.compareAndSet(false, true)) {
            return drained;
        }
        long t0 = System.nanoTime();
        LOG.infof("Draining: no more runs are claimed and the replica is not ready; the runs held here are handed back "
                + "at their next step boundary (at most %d ms from now)", stepWait.toMillis());
        executor.drain(stepWait).subscribe().with(n -> streams(n, t0), f -> {
            LOG.warnf("Draining the worker failed (%s): its runs resume once their lease lapses", f.toString());
            streams(-1, t0);
        });
        return drained;
    }

    private void streams(int runs, long t0) {
        long handedBack = (System.nanoTime() - t0) / 1_000_000;
        int told = permits.shutDown();
        LOG.infof("Drained in %d ms: %d run(s) handed back, %d open stream(s) told to reconnect",
                handedBack, Math.max(runs, 0), told);
        drained.complete(null);
    }

    private void drainAndWait() {
        try {
            drain().get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException late) {
            LOG.warnf("The drain did not finish within %d ms (quarkus.shutdown.timeout): the runs not handed back resume "
                    + "once their lease lapses", bound.toMillis());
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        } catch (Exception failed) {
            LOG.warnf("The drain failed: %s", failed.toString());
        }
    }
}
