package io.conduit.persistence;

import io.conduit.runs.StoreUnavailable;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.function.IntFunction;
import org.jboss.logging.Logger;

/**
 * Repeats a store statement that failed because the connection to PostgreSQL was lost: the server restarted, an
 * administrator terminated the backend, the network dropped the socket. Such a failure says nothing about the
 * statement, and a new connection from the pool usually works, so a run should not fail for it. Bounded: after
 * {@code attempts} tries the failure stands. Only statements that are safe to repeat go through here; each
 * statement of {@link PostgresCheckpointer} is (an upsert, a delete, a read, or a put checked by its caller).
 */
final class ConnectionRetry {

    private static final Logger LOG = Logger.getLogger(PostgresCheckpointer.class);

    private final int attempts;
    private final Duration first;
    private final Duration max;

    ConnectionRetry(int attempts, Duration first, Duration max) {
        this.attempts = attempts;
        this.first = first;
        this.max = max;
    }

    /** Five tries over about 750 ms (50, 100, 200, 400 ms apart): a backend restart, not a long outage. */
    static ConnectionRetry defaults() {
        return new ConnectionRetry(5, Duration.ofMillis(50), Duration.ofSeconds(1));
    }

    /**
     * Runs {@code statement}, again on a lost connection.
     *
     * @param what      names the statement in the log line of each retry
     * @param statement given the attempt number, from 1: a repeat may need to check what an earlier one did
     */
    <T> Uni<T> run(String what, IntFunction<Uni<T>> statement) {
        return attempt(what, statement, 1);
    }

    /**
     * Goes on as {@link #run} would after a first attempt, made elsewhere, lost its connection with {@code failure}
     * (a group of puts, {@link CheckpointGroupCommit}): the repeats and their waits are the same.
     */
    <T> Uni<T> runAfter(String what, Throwable failure, IntFunction<Uni<T>> statement) {
        return attempts > 1 ? again(what, statement, 1, failure) : Uni.createFrom().failure(failure);
    }

    private <T> Uni<T> attempt(String what, IntFunction<Uni<T>> statement, int n) {
        return Uni.createFrom().deferred(() -> statement.apply(n))
                .onFailure(t -> n < attempts && lostConnection(t))
                .recoverWithUni(t -> again(what, statement, n, t));
    }

    private <T> Uni<T> again(String what, IntFunction<Uni<T>> statement, int failed, Throwable t) {
        Duration wait = backoff(failed);
        // one line, no stack trace: the cause is known and the retry is the handling
        LOG.warnf("%s: connection to PostgreSQL lost (%s); retry %d of %d in %d ms",
                what, describe(t), failed, attempts - 1, wait.toMillis());
        return Uni.createFrom().voidItem().onItem().delayIt().by(wait)
                .flatMap(v -> attempt(what, statement, failed + 1));
    }

    private Duration backoff(int failedAttempt) {
        long millis = first.toMillis() << Math.min(failedAttempt - 1, 20);
        return Duration.ofMillis(Math.min(millis, max.toMillis()));
    }

    /** Whether a failure, or any cause of it, is the connection going away rather than the statement failing. */
    static boolean lostConnection(Throwable failure) {
        return StoreUnavailable.is(failure);
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + m);
    }
}
