package io.conduit.persistence;

import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.SqlConnectOptions;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The reactive PostgreSQL pool as Quarkus configures it, with two changes.
 *
 * <p>No timer on a statement's wait for a connection. Vert.x SQL client 4.5 arms that timer for every statement and
 * does not cancel it when opening the connection fails (eclipse-vertx/vertx-sql-client#1706, open): while PostgreSQL
 * is down, each refused statement then fails a second time when its timer fires, and Vert.x logs an uncaught
 * {@code IllegalStateException: Result is already complete} with its stack, one per statement (50 in an 8 s outage).
 * Without the timer a statement waits for a pooled connection as long as it takes, which is the backpressure a busy
 * pool should give runs; opening a connection is still bounded by the connect timeout, and a refused one fails the
 * statement at once.
 *
 * <p>No JIT compilation ({@code jit=off}, sent when each connection opens). Every statement here is short, and
 * PostgreSQL's JIT costs 100 to 250 ms a statement whenever a plan's estimate crosses {@code jit_above_cost}: the
 * cross-replica read of a thousand threads (its per-thread {@code LIMIT} estimated whole) took 200 ms instead of a
 * few, and followers fell behind.
 */
@Singleton
public class ConduitPgPool implements PgPoolCreator {

    @Override
    public Pool create(Input input) {
        PoolOptions options = new PoolOptions(input.poolOptions()).setConnectionTimeout(0);
        List<SqlConnectOptions> servers = input.pgConnectOptionsList().stream()
                .map(o -> (SqlConnectOptions) new PgConnectOptions(o).addProperty("jit", "off")).toList();
        return PgBuilder.pool().with(options).connectingTo(servers).using(input.vertx()).build();
    }
}
