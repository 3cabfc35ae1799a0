package io.conduit.runs.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.ManualClock;
import io.conduit.runs.Chore;
import io.conduit.runs.HousekeeperRole;
import io.conduit.store.Stores;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The housekeeping of one replica: with the stores in memory it holds the role alone and does every chore when due;
 * without the role it does none. Two replicas on one database: {@code PostgresHousekeeperRoleTest}.
 */
class ClusterHousekeepingTest {

    private static final Duration TICK = Duration.ofMinutes(1);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final ManualClock clock = new ManualClock(Instant.parse("2026-11-27T00:00:00Z"));

    @Test
    void inMemoryTheProcessDoesEachChoreWhenItIsDue() {
        AtomicInteger minutely = new AtomicInteger();
        AtomicInteger hourly = new AtomicInteger();
        ClusterHousekeeping housekeeping = new ClusterHousekeeping(HousekeeperRole.ALONE, List.of(
                counting("minutely", TICK, minutely), counting("hourly", Duration.ofHours(1), hourly)), clock, TICK);
        assertThat(tick(housekeeping)).containsExactly("minutely", "hourly");
        for (int i = 1; i < 60; i++) {
            clock.advance(TICK.plusMillis(i % 2 == 0 ? 20 : -20)); // a timer's jitter puts nothing off by a tick
            assertThat(tick(housekeeping)).as("tick %d", i).containsExactly("minutely");
        }
        clock.advance(TICK);
        assertThat(tick(housekeeping)).containsExactly("minutely", "hourly");
        assertThat(minutely).hasValue(61);
        assertThat(hourly).hasValue(2);
    }

    @Test
    void aReplicaWithoutTheRoleDoesNothing() {
        AtomicInteger done = new AtomicInteger();
        HousekeeperRole elsewhere = new HousekeeperRole() {
            @Override
            public Uni<Boolean> hold() {
                return Uni.createFrom().item(false);
            }

            @Override
            public Uni<Void> release() {
                return Uni.createFrom().voidItem();
            }
        };
        ClusterHousekeeping housekeeping = new ClusterHousekeeping(elsewhere, List.of(counting("sweep", TICK, done)), clock, TICK);
        assertThat(tick(housekeeping)).isEmpty();
        assertThat(done).hasValue(0);
    }

    @Test
    void aFailedChoreDoesNotStopTheOthersAndIsTriedAgainWhenDue() {
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger after = new AtomicInteger();
        Chore failing = new Chore("failing", TICK, () -> {
            attempts.incrementAndGet();
            return Uni.createFrom().failure(new IllegalStateException("store out of reach"));
        });
        Chore throwing = new Chore("throwing", TICK, () -> {
            throw new IllegalStateException("thrown, not failed");
        });
        ClusterHousekeeping housekeeping = new ClusterHousekeeping(HousekeeperRole.ALONE, List.of(failing, throwing, counting("after", TICK, after)), clock, TICK);
        assertThat(tick(housekeeping)).containsExactly("failing", "throwing", "after");
        clock.advance(TICK);
        assertThat(tick(housekeeping)).containsExactly("failing", "throwing", "after");
        assertThat(attempts).hasValue(2);
        assertThat(after).hasValue(2);
    }

    @Test
    void aTickWhileTheLastOneStillRunsSkipsItsTurn() {
        CompletableFuture<Integer> slow = new CompletableFuture<>();
        AtomicBoolean started = new AtomicBoolean();
        Chore chore = new Chore("slow", TICK, () -> {
            started.set(true);
            return Uni.createFrom().completionStage(slow);
        });
        ClusterHousekeeping housekeeping = new ClusterHousekeeping(HousekeeperRole.ALONE, List.of(chore), clock, TICK);
        CompletableFuture<List<String>> first = housekeeping.tick().subscribeAsCompletionStage();
        assertThat(started).isTrue();
        clock.advance(TICK);
        assertThat(tick(housekeeping)).as("the second tick, while the first runs").isEmpty();
        slow.complete(3);
        assertThat(first.join()).containsExactly("slow");
    }

    private static Chore counting(String name, Duration every, AtomicInteger count) {
        return new Chore(name, every, () -> Uni.createFrom().item(count.incrementAndGet()));
    }

    private static List<String> tick(ClusterHousekeeping housekeeping) {
        return housekeeping.tick().await().atMost(WAIT);
    }
}
