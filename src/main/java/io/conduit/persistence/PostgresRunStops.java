package io.conduit.persistence;

import io.conduit.runs.RunStops;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * {@link RunStops} as PostgreSQL notifications on {@code conduit_stops}: run, reason, newer run and thread, one per line
 * (the thread last: a replica of an earlier version sends three lines, and reads the first three of four).
 */
public final class PostgresRunStops implements RunStops {

    static final String CHANNEL = "conduit_stops";

    private final Pool pool;
    private final PgSubscriber subscriber;

    public PostgresRunStops(Pool pool, PgSubscriber subscriber) {
        this.pool = pool;
        this.subscriber = subscriber;
    }

    @Override
    public Uni<Void> ask(String threadId, String runId, String reason, String byRun) {
        return pool.preparedQuery("SELECT pg_notify('" + CHANNEL + "', $1)")
                .execute(Tuple.of(runId + "\n" + reason + "\n" + (byRun == null ? "" : byRun) + "\n" + threadId)).replaceWithVoid();
    }

    @Override
    public void onAsked(Asked asked) {
        subscriber.channel(CHANNEL).handler(payload -> {
            String[] parts = payload.split("\n", -1);
            if (parts.length >= 3) {
                asked.stop(parts.length > 3 ? parts[3] : null, parts[0], parts[1], parts[2].isEmpty() ? null : parts[2]);
            }
        });
    }
}
