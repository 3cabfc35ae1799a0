package io.conduit.http;

import io.conduit.runs.LimitExceededException;
import io.conduit.runs.delivery.ReplicaShuttingDownException;
import io.conduit.runs.delivery.StreamPermits;
import io.conduit.runs.delivery.StreamTransport;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * A client waiting for a run's end ({@code runs/wait}, {@code join}, an MCP tool call) holds a connection as long as a stream does, so it
 * takes a stream permit ({@link StreamTransport#RUN_WAIT}): bounded by {@code conduit.limits.max-streams}, and told when
 * the replica drains. Its run is handed back then and ends elsewhere, where this replica cannot see it: the wait ends
 * with {@code server_shutting_down} instead of hanging until the process stops, and the client asks again.
 */
@ApplicationScoped
public class RunWaits {

    private final StreamPermits permits;

    RunWaits(StreamPermits permits) {
        this.permits = permits;
    }

    /** A permit for one wait, or null past the limit ({@link #refusal()}). */
    public StreamPermits.Permit open() {
        return permits.tryAcquire(StreamTransport.RUN_WAIT);
    }

    public LimitExceededException refusal() {
        return new LimitExceededException(StreamPermits.CODE, permits.refusal(), Duration.ofSeconds(permits.retryAfterSeconds()));
    }

    /** {@code wait}, under a permit; failed with {@link ReplicaShuttingDownException} (503) when the replica drains. */
    public <T> Uni<T> untilEnd(Uni<T> wait) {
        return Uni.createFrom().deferred(() -> {
            StreamPermits.Permit permit = open();
            return permit == null ? Uni.createFrom().failure(refusal()) : untilEnd(permit, wait);
        });
    }

    /**
     * {@code wait}, under a permit the caller took ({@link #open()}) before it created the run, so that a refusal creates
     * nothing; the permit is released when the wait ends, fails or is cancelled.
     */
    public <T> Uni<T> untilEnd(StreamPermits.Permit permit, Uni<T> wait) {
        Uni<T> drained = Uni.createFrom().emitter(em -> permit.onShutdown(() -> em.fail(new ReplicaShuttingDownException())));
        return Uni.combine().any().<T>of(wait, drained).eventually(permit::release);
    }
}
