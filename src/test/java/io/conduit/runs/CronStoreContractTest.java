package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.persistence.PostgresCronStore;
import io.conduit.persistence.TestDatabase;
import io.conduit.runs.memory.InMemoryCronStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The behaviour every {@link CronStore} shares: in memory and in Postgres (a schema of its own, emptied per test).
 * Time is fixed: each test says what "now" is, so a tick's claim and the next tick are exact.
 */
class CronStoreContractTest {

    /** A Friday, 09:00:00 UTC. */
    private static final Instant T0 = Instant.parse("2025-03-14T09:00:00Z");
    private static final SortOrder NEWEST = SortOrder.of(null, null, CronStore.SORTS);

    static Stream<Named<Supplier<CronStore>>> stores() {
        return Stream.of(Named.of("memory", InMemoryCronStore::new), Named.of("postgres", () -> {
            Pool pool = TestDatabase.schemaPool("cron_contract");
            pool.query("TRUNCATE conduit_crons").execute().await().atMost(Duration.ofSeconds(10));
            return new PostgresCronStore(pool);
        }));
    }

    private static <T> T await(Uni<T> u) {
        return u.await().atMost(Duration.ofSeconds(10));
    }

    /** Every minute, due at {@code next}, created at T0 - {@code age} seconds (so creation orders them). */
    private static Cron cron(String id, String thread, String user, Instant next, int age) {
        Instant created = T0.minusSeconds(age);
        return new Cron(id, "asst-1", thread, "* * * * *", null, null, true, next, thread == null ? "delete" : null,
                Map.of("input", Map.of("messages", List.of(Map.of("role", "user", "content", "hi")))), Map.of("team", "blue"),
                user, false, created, created);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aCronIsKeptAsGivenUpdatedAndDeleted(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        Cron c = new Cron("c1", "asst-1", "t1", "30 8 * * 1-5", "Europe/Paris", T0.plusSeconds(86_400), true,
                T0.plusSeconds(60), null, Map.of("input", Map.of("q", 1), "webhook", "http://127.0.0.1/hook"),
                Map.of("team", "blue"), "ada", true, T0, T0);
        assertThat(await(store.create(c))).isEqualTo(c);
        assertThat(await(store.get("c1"))).contains(c);
        assertThat(await(store.get("nope"))).isEmpty();

        Cron off = new Cron("c1", "asst-1", "t1", "0 * * * *", null, null, false, null, null, Map.of(), Map.of(), "ada", true, T0,
                T0.plusSeconds(5));
        assertThat(await(store.update("c1", current -> {
            assertThat(current).isEqualTo(c);
            return off;
        }))).contains(off);
        assertThat(await(store.get("c1"))).contains(off);
        assertThat(await(store.update("ghost", current -> cron("ghost", null, null, T0, 0))))
                .as("no cron of that id: nothing created").isEmpty();
        assertThat(await(store.get("ghost"))).isEmpty();

        assertThat(await(store.delete("c1"))).isTrue();
        assertThat(await(store.delete("c1"))).isFalse();
        assertThat(await(store.get("c1"))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void searchFiltersSortsAndPages(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        await(store.create(cron("a", "t1", "ada", T0.plusSeconds(30), 3)));
        await(store.create(cron("b", null, "ada", T0.plusSeconds(10), 2)));
        await(store.create(cron("c", "t1", "bo", T0.plusSeconds(20), 1)));
        Cron other = new Cron("d", "asst-2", null, "* * * * *", null, null, false, null, "keep", Map.of(), Map.of("team", "red"),
                null, false, T0, T0);
        await(store.create(other));

        CronStore.Query all = new CronStore.Query(null, null, null, null, null);
        assertThat(ids(await(store.search(all, NEWEST, 10, 0)))).containsExactly("d", "c", "b", "a");
        assertThat(ids(await(store.search(all, SortOrder.of("next_run_date", "asc", CronStore.SORTS), 3, 0))))
                .containsExactly("b", "c", "a");
        assertThat(ids(await(store.search(all, SortOrder.of("cron_id", "asc", CronStore.SORTS), 2, 1)))).containsExactly("b", "c");
        assertThat(ids(await(store.search(new CronStore.Query(null, "t1", null, null, null), NEWEST, 10, 0)))).containsExactly("c", "a");
        assertThat(ids(await(store.search(new CronStore.Query("asst-2", null, null, null, null), NEWEST, 10, 0)))).containsExactly("d");
        assertThat(ids(await(store.search(new CronStore.Query(null, null, false, null, null), NEWEST, 10, 0)))).containsExactly("d");
        assertThat(ids(await(store.search(new CronStore.Query(null, null, null, Map.of("team", "blue"), null), NEWEST, 10, 0))))
                .containsExactly("c", "b", "a");
        assertThat(ids(await(store.search(new CronStore.Query(null, null, null, null, "ada"), NEWEST, 10, 0))))
                .as("an owner sees its own only").containsExactly("b", "a");

        assertThat(await(store.count(all))).isEqualTo(4);
        assertThat(await(store.count(new CronStore.Query(null, "t1", null, Map.of("team", "blue"), "bo")))).isEqualTo(1);
        assertThat(await(store.count(new CronStore.Query(null, null, null, Map.of("team", "green"), null)))).isZero();

        assertThat(await(store.deleteForThread("t1"))).isEqualTo(2);
        assertThat(ids(await(store.search(all, NEWEST, 10, 0)))).containsExactly("d", "b");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void onlyDueEnabledCronsAreClaimedAndTheirNextTickMovesPastNow(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        await(store.create(cron("due", "t1", null, T0, 0)));
        await(store.create(cron("later", "t2", null, T0.plusSeconds(60), 0)));
        Cron off = new Cron("off", "asst-1", null, "* * * * *", null, null, false, T0.minusSeconds(60), "delete", Map.of(), Map.of(),
                null, false, T0, T0);
        await(store.create(off));

        List<Cron> claimed = await(store.claimDue(T0, 10));
        assertThat(ids(claimed)).containsExactly("due");
        assertThat(claimed.get(0).nextRunDate()).isEqualTo(T0.plusSeconds(60));
        assertThat(await(store.get("due")).orElseThrow().nextRunDate()).isEqualTo(T0.plusSeconds(60));
        assertThat(await(store.claimDue(T0, 10))).as("the tick is claimed once").isEmpty();
        assertThat(ids(await(store.claimDue(T0.plusSeconds(60), 10)))).containsExactlyInAnyOrder("due", "later");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void ticksMissedWhileNothingRanAreRunOnce(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        await(store.create(cron("c", "t1", null, T0, 0)));
        Instant later = T0.plus(Duration.ofMinutes(10).plusSeconds(30)); // ten ticks missed: no replica ran

        assertThat(ids(await(store.claimDue(later, 10)))).containsExactly("c");
        assertThat(await(store.claimDue(later, 10))).isEmpty();
        assertThat(await(store.get("c")).orElseThrow().nextRunDate()).isEqualTo(T0.plus(Duration.ofMinutes(11)));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aCronPastItsEndTimeHasNoNextTick(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        Cron ending = new Cron("e", "asst-1", "t1", "* * * * *", "America/New_York", T0.plusSeconds(30), true, T0, null, Map.of(),
                Map.of(), null, false, T0, T0);
        await(store.create(ending));
        assertThat(ids(await(store.claimDue(T0, 10)))).as("its last tick runs").containsExactly("e");
        assertThat(await(store.get("e")).orElseThrow().nextRunDate()).isNull();
        assertThat(await(store.claimDue(T0.plusSeconds(3600), 10))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void claimersAtOnceNeverGetTheSameTick(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        for (int i = 0; i < 30; i++) {
            await(store.create(cron("c" + i, "t" + i, null, T0.minusSeconds(i), i)));
        }
        // subscribed all at once, awaited after: several replicas polling together
        List<CompletableFuture<List<Cron>>> claims = IntStream.range(0, 8)
                .mapToObj(i -> store.claimDue(T0, 5).subscribeAsCompletionStage()).toList();
        List<String> all = new ArrayList<>();
        claims.forEach(c -> all.addAll(ids(c.join())));
        assertThat(all).as("each cron claimed once").doesNotHaveDuplicates().hasSize(30);
        assertThat(await(store.claimDue(T0, 100))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aChangeThatThrowsWritesNothing(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        Cron c = await(store.create(cron("c", "t1", null, T0, 0)));
        assertThatThrownBy(() -> await(store.update("c", current -> {
            throw new InvalidInputException("schedule", "is bad");
        }))).isInstanceOf(InvalidInputException.class);
        assertThat(await(store.get("c"))).contains(c);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void anUpdateChangesTheCronAsLastClaimedSoAClaimIsNeverUndone(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        await(store.create(cron("c", "t1", null, T0, 0)));
        assertThat(ids(await(store.claimDue(T0, 10)))).containsExactly("c");

        // a change of metadata only, keeping the next tick it is given (as Crons' update does)
        Cron updated = await(store.update("c", current -> changedMetadata(current))).orElseThrow();
        assertThat(updated.nextRunDate()).as("the tick claimed at T0 stays claimed").isEqualTo(T0.plusSeconds(60));
        assertThat(await(store.claimDue(T0, 10))).as("so it is not claimed again").isEmpty();

        // a claim and an update at once: whichever comes first, the other sees its write, so the tick is claimed once
        // (a Postgres claim skips the row while the update holds it: then the next claim takes it) and the change is kept
        Instant t1 = T0.plusSeconds(60);
        for (int i = 0; i < 20; i++) {
            Instant now = t1.plusSeconds(60L * i);
            CompletableFuture<List<Cron>> claim = store.claimDue(now, 10).subscribeAsCompletionStage();
            CompletableFuture<?> update = store.update("c", current -> changedMetadata(current)).subscribeAsCompletionStage();
            update.join();
            List<String> claimed = new ArrayList<>(ids(claim.join()));
            claimed.addAll(ids(await(store.claimDue(now, 10))));
            assertThat(claimed).as("tick " + i + " claimed once").containsExactly("c");
            Cron stored = await(store.get("c")).orElseThrow();
            assertThat(stored.nextRunDate()).isEqualTo(now.plusSeconds(60));
            assertThat(stored.metadata()).containsEntry("team", "green");
        }
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aCronWhoseScheduleNoLongerComputesIsStoppedAndTheOthersAreClaimed(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        // stored when its zone existed (a tzdata update since removed it); due first, so it heads every claim
        Cron goneZone = new Cron("gone", "asst-1", "t1", "* * * * *", "Mars/Olympus_Mons", null, true, T0.minusSeconds(120), null,
                Map.of(), Map.of(), null, false, T0, T0);
        Cron badSchedule = new Cron("bad", "asst-1", "t2", "not a cron", null, null, true, T0.minusSeconds(60), null, Map.of(),
                Map.of(), null, false, T0, T0);
        await(store.create(goneZone));
        await(store.create(badSchedule));
        await(store.create(cron("good", "t3", null, T0, 0)));

        assertThat(ids(await(store.claimDue(T0, 10)))).as("the good one is claimed").containsExactly("good");
        assertThat(await(store.get("gone")).orElseThrow().nextRunDate()).as("no next tick").isNull();
        assertThat(await(store.get("bad")).orElseThrow().nextRunDate()).isNull();
        assertThat(await(store.get("good")).orElseThrow().nextRunDate()).isEqualTo(T0.plusSeconds(60));
        assertThat(ids(await(store.claimDue(T0.plusSeconds(60), 1)))).as("and claimed again at its next tick").containsExactly("good");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aBadCronAtTheHeadOfASmallBatchDoesNotBlockTheNextClaim(Supplier<CronStore> stores) {
        CronStore store = stores.get();
        await(store.create(new Cron("gone", "asst-1", "t1", "* * * * *", "Mars/Olympus_Mons", null, true, T0.minusSeconds(60), null,
                Map.of(), Map.of(), null, false, T0, T0)));
        await(store.create(cron("good", "t2", null, T0, 0)));

        assertThat(await(store.claimDue(T0, 1))).as("the bad one, stopped, is not run").isEmpty();
        assertThat(ids(await(store.claimDue(T0, 1)))).as("and no longer heads the due ones").containsExactly("good");
    }

    private static Cron changedMetadata(Cron c) {
        return new Cron(c.cronId(), c.assistantId(), c.threadId(), c.schedule(), c.timezone(), c.endTime(), c.enabled(),
                c.nextRunDate(), c.onRunCompleted(), c.payload(), Map.of("team", "green"), c.userId(), c.ownerAdmin(), c.createdAt(),
                c.updatedAt());
    }

    private static List<String> ids(List<Cron> crons) {
        return crons.stream().map(Cron::cronId).toList();
    }
}
