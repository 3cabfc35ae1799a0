package io.conduit.runs.delivery;

/**
 * A wait this replica ends because it shuts down ({@link ServerShutdown}): HTTP 503 {@code server_shutting_down} with
 * {@code Retry-After}, so that the client asks again and another replica answers.
 */
public final class ReplicaShuttingDownException extends RuntimeException {

    public ReplicaShuttingDownException() {
        super(ServerShutdown.message());
    }
}
