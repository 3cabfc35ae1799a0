package io.conduit.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.ManualClock;
import io.conduit.runs.Chore;
import io.conduit.runs.housekeeping.ClusterHousekeeping;
import io.conduit.store.Stores;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two replicas' housekeeping on one database, each with a pool of its own (two pools, as two processes have): at each
 * tick, both ticking at once, the chore is done by one of them only, the same one while it holds the role; the other
 * takes the role over when the first gives it up (it stops) or its session ends (a killed process). The lock's key is
 * the test's own, so a service running on the same database (another test's) does not take part.
 */
class PostgresHousekeeperRoleTest {

    private static final Duration TICK = Duration.ofMinutes(1);
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String DB = TestDatabase.env("CONDUIT_DB_NAME", "test");

    private final long key = ThreadLocalRandom.current().nextLong();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-27T00:00:00Z"));
    private final Pool poolA = TestDatabase.open(DB, 2);
    private final Pool poolB = TestDatabase.open(DB, 2);
    private final PostgresHousekeeperRole roleA = new PostgresHousekeeperRole(poolA, key);
    private final PostgresHousekeeperRole roleB = new PostgresHousekeeperRole(poolB, key);
    private final AtomicInteger doneByA = new AtomicInteger();
    private final AtomicInteger doneByB = new AtomicInteger();
    private final ClusterHousekeeping a = housekeeping(roleA, doneByA);
    private final ClusterHousekeeping b = housekeeping(roleB, doneByB);

    @AfterEach
    void closePools() {
        poolA.close().await().atMost(WAIT);
        poolB.close().await().atMost(WAIT);
    }

    @Test
    void eachTickTheChoreIsDoneByOneReplicaOnly() {
        for (int i = 0; i < 10; i++) {
            tickBoth();
        }
        assertThat(doneByA.get() + doneByB.get()).as("chores done in ten ticks of two replicas").isEqualTo(10);
        assertThat(List.of(doneByA.get(), doneByB.get())).as("by the one that took the role, every time").contains(0, 10);
    }

    @Test
    void theOtherReplicaTakesTheRoleWhenTheHousekeeperStops() {
        tickBoth();
        boolean aHolds = doneByA.get() == 1;
        ClusterHousekeeping staying = aHolds ? b : a;
        AtomicInteger other = aHolds ? doneByB : doneByA;
        (aHolds ? roleA : roleB).release().await().atMost(WAIT); // as it stops: its timer cancelled, no more ticks
        clock.advance(TICK);
        assertThat(staying.tick().await().atMost(WAIT)).as("the other replica's next tick").containsExactly("count");
        clock.advance(TICK);
        assertThat(staying.tick().await().atMost(WAIT)).as("which keeps the role").containsExactly("count");
        assertThat(other).hasValue(2);
    }

    @Test
    void theOtherReplicaTakesTheRoleWhenTheHousekeepersSessionEnds() {
        tickBoth();
        AtomicInteger holder = doneByA.get() == 1 ? doneByA : doneByB;
        AtomicInteger other = holder == doneByA ? doneByB : doneByA;
        Integer ended = poolA.preparedQuery("SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                        + " AND ((classid::bigint << 32) | objid::bigint) = $1")
                .execute(Tuple.of(key)).map(rows -> rows.iterator().next().getInteger(0)).await().atMost(WAIT);
        assertThat(ended).as("the housekeeper's session, ended as a killed process's is").isEqualTo(1);
        int rounds = 0;
        while (other.get() == 0) { // Postgres frees the lock once the ended backend has exited: a round or two
            assertThat(rounds++).as("ticks until the other replica takes the role").isLessThan(200);
            tickBoth();
        }
        assertThat(holder).as("the replica whose session ended did nothing more").hasValue(1);
        int before = other.get();
        tickBoth();
        assertThat(other).hasValue(before + 1);
        assertThat(holder).hasValue(1);
    }

    /** Both replicas tick at once, a minute after the last tick; at most one of them does the chore. */
    private void tickBoth() {
        clock.advance(TICK);
        int before = doneByA.get() + doneByB.get();
        Uni.join().all(a.tick(), b.tick()).andFailFast().await().atMost(WAIT);
        assertThat(doneByA.get() + doneByB.get() - before).as("chores done at one tick").isLessThanOrEqualTo(1);
    }

    private ClusterHousekeeping housekeeping(PostgresHousekeeperRole role, AtomicInteger done) {
        return new ClusterHousekeeping(role, List.of(new Chore("count", TICK, () -> Uni.createFrom().item(done.incrementAndGet()))), clock, TICK);
    }
}
