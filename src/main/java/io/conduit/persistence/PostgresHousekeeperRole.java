package io.conduit.persistence;

import io.conduit.runs.HousekeeperRole;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import java.util.concurrent.atomic.AtomicReference;
import org.jboss.logging.Logger;

/**
 * The housekeeper's role on Postgres: a session-level advisory lock ({@code pg_try_advisory_lock}) on a fixed key, taken
 * on a connection of the pool that this replica then keeps out of it for as long as it holds the role. A transaction's
 * lock, taken at each tick, would only keep two replicas from doing a chore at the same moment: with their timers out
 * of phase each would still do it once per period. A session's lock makes one replica the housekeeper until it gives
 * it up ({@link #release}, as it stops) or its session ends: a process killed closes its socket and Postgres frees
 * the lock at once; a replica cut off by the network holds it until Postgres sees the connection gone (its TCP
 * keepalives), and the chores wait meanwhile. At each look the holder checks its connection with a statement; one that
 * fails loses the role here too, and the next look tries to take it again.
 */
public final class PostgresHousekeeperRole implements HousekeeperRole {

    /**
     * The lock's key, the service's own: "conduitH" in ASCII. Outside the 32-bit range of the keys of
     * {@link PostgresRunStore}'s per-thread locks ({@code hashtext} of a thread id), so it never waits on one of them.
     */
    public static final long KEY = 0x636f6e6475697448L;

    private static final Logger LOG = Logger.getLogger(PostgresHousekeeperRole.class);

    private final Pool pool;
    private final long key;
    /** The connection holding the lock, while this replica holds the role. */
    private final AtomicReference<SqlConnection> held = new AtomicReference<>();

    public PostgresHousekeeperRole(Pool pool) {
        this(pool, KEY);
    }

    /** {@code key}: the advisory lock's, for tests that must not meet a running service's housekeeper. */
    public PostgresHousekeeperRole(Pool pool, long key) {
        this.pool = pool;
        this.key = key;
    }

    @Override
    public Uni<Boolean> hold() {
        SqlConnection c = held.get();
        if (c == null) {
            return take();
        }
        return c.query("SELECT 1").execute().replaceWith(true).onFailure().recoverWithUni(f -> {
            LOG.warnf("The connection holding the housekeeper's lock failed (%s); this replica gives the role up", f.toString());
            return drop(c).replaceWith(false);
        });
    }

    private Uni<Boolean> take() {
        return pool.getConnection().chain(c -> c.preparedQuery("SELECT pg_try_advisory_lock($1)").execute(Tuple.of(key))
                        .map(rows -> rows.iterator().next().getBoolean(0))
                        .onFailure().call(f -> c.close())
                        .chain(got -> {
                            if (got && held.compareAndSet(null, c)) {
                                return Uni.createFrom().item(true);
                            }
                            return got ? drop(c).replaceWith(false) : c.close().replaceWith(false);
                        }))
                .onFailure().recoverWithItem(f -> {
                    LOG.debugf("Taking the housekeeper's lock failed (%s); the next look tries again", f.toString());
                    return false;
                });
    }

    @Override
    public Uni<Void> release() {
        SqlConnection c = held.get();
        return c == null ? Uni.createFrom().voidItem() : drop(c);
    }

    /**
     * Gives the connection back to the pool without the lock: a pooled connection outlives its borrower, so a lock left
     * on it would stay with a session that no longer knows it holds it. If the unlock fails the connection is broken,
     * and its session's end frees the lock.
     */
    private Uni<Void> drop(SqlConnection c) {
        held.compareAndSet(c, null);
        return c.preparedQuery("SELECT pg_advisory_unlock($1)").execute(Tuple.of(key)).replaceWithVoid()
                .onFailure().recoverWithNull()
                .eventually(c::close);
    }
}
