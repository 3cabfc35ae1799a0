package io.conduit.persistence;

import io.conduit.runs.RunStops;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.pgclient.pubsub.PgSubscriber;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/** {@link RunStops} as PostgreSQL notifications on {@code conduit_stops}: run, reason and newer run, one per line. */
public final class PostgresRunStops implements RunStops {

    static final String CHANNEL = "conduit_stops";

    private final Pool pool;
    private final PgSubscriber subscriber;

    public PostgresRunStops(Pool pool, PgSubscriber subscriber) {
        this.pool = pool;
        this.subscriber = subscriber;
    }

    @Override
    public Uni<Void> ask(String runId, String reason, String byRun) {
        return pool.preparedQuery("SELECT pg_notify('" + CHANNEL + "', $1)")
                .execute(Tuple.of(runId + "\n" + reason + "\n" + (byRun == null ? "" : byRun))).replaceWithVoid();
    }

    @Override
    public void onAsked(Asked asked) {
        subscriber.channel(CHANNEL).handler(payload -> {
            String[] parts = payload.split("\n", -1);
            if (parts.length == 3) {
                asked.stop(parts[0], parts[1], parts[2].isEmpty() ? null : parts[2]);
            }
        });
    }
}
