package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every {@link RunStore} must share; runs against each store of {@link RunStores#runs()}. */
public class RunStoreContractTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** Millisecond times: every store keeps them exactly (Postgres keeps microseconds). */
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void createThenGetReturnsEveryField(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        Map<String, Object> kwargs = Map.of("input", Map.of("messages", List.of(Map.of("role", "user", "content", "hé \"x\""))),
                "stream_mode", List.of("values", "updates"), "n", 3);
        Run run = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, Map.of("user", "ada", "nested", Map.of("k", 1)),
                MultitaskStrategy.INTERRUPT, RunSpecJson.fromKwargs(kwargs), T0, T0.plusMillis(1), T0.plusSeconds(5), null);
        Run created = await(store.create(run));
        assertThat(created).isEqualTo(run);
        assertThat(await(store.get(run.runId()))).contains(run);
        assertThat(await(store.get(UUID.randomUUID().toString()))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aCreatedRunIsPendingAndDefaultsItsTimes(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run given = new Run(UUID.randomUUID().toString(), thread(), "agent", RunStatus.RUNNING, null, null, null, T0, null, null, "w");
        Run created = await(store.create(given));
        assertThat(created.status()).isEqualTo(RunStatus.PENDING);
        assertThat(created.workerId()).isNull();
        assertThat(created.updatedAt()).isEqualTo(T0);
        assertThat(created.notBefore()).isEqualTo(T0);
        assertThat(created.multitaskStrategy()).isEqualTo(MultitaskStrategy.ENQUEUE);
        assertThat(created.metadata()).isEmpty();
        assertThat(await(store.get(given.runId()))).contains(created);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aRunIdCanBeUsedOnce(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run first = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run again = new Run(first.runId(), thread(), "other", RunStatus.PENDING, null, MultitaskStrategy.ENQUEUE, null, T0, T0, T0, null);
        assertThatThrownBy(() -> await(store.create(again))).isInstanceOf(IllegalArgumentException.class);
        Run rejectAgain = new Run(first.runId(), thread(), "other", RunStatus.PENDING, null, MultitaskStrategy.REJECT, null, T0, T0, T0, null);
        assertThatThrownBy(() -> await(store.create(rejectAgain))).isInstanceOf(IllegalArgumentException.class);
        assertThat(await(store.get(first.runId()))).contains(first);
    }

    // ---- reject

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void rejectFailsWhileTheThreadHasAPendingOrRunningRun(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        Run first = await(store.create(run(thread, 0, MultitaskStrategy.ENQUEUE)));
        assertThatThrownBy(() -> await(store.create(run(thread, 1, MultitaskStrategy.REJECT)))).isInstanceOf(ThreadBusyException.class);

        await(store.claimNext("w1", T0.plusSeconds(1)));
        assertThat(await(store.get(first.runId())).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThatThrownBy(() -> await(store.create(run(thread, 2, MultitaskStrategy.REJECT)))).isInstanceOf(ThreadBusyException.class);

        assertThat(await(store.finish(first.runId(), "w1", RunStatus.SUCCESS, T0.plusSeconds(2)))).isTrue();
        Run accepted = await(store.create(run(thread, 3, MultitaskStrategy.REJECT)));
        assertThat(await(store.inflight(thread))).extracting(Run::runId).containsExactly(accepted.runId());
        // other threads are not concerned
        await(store.create(run(thread(), 4, MultitaskStrategy.REJECT)));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void enqueueAlwaysInserts(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        await(store.create(run(thread, 0, MultitaskStrategy.ENQUEUE)));
        await(store.create(run(thread, 1, MultitaskStrategy.ENQUEUE)));
        await(store.create(run(thread, 2, MultitaskStrategy.INTERRUPT)));
        await(store.create(run(thread, 3, MultitaskStrategy.ROLLBACK)));
        assertThat(await(store.inflight(thread))).hasSize(4);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void ofConcurrentRejectsOnOneThreadExactlyOneWins(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        for (int round = 0; round < 5; round++) {
            String thread = thread();
            // subscribed all at once, awaited after
            List<CompletableFuture<Run>> creates = IntStream.range(0, 8)
                    .mapToObj(i -> store.create(run(thread, i, MultitaskStrategy.REJECT)).subscribeAsCompletionStage())
                    .toList();
            long won = 0;
            long busy = 0;
            for (CompletableFuture<Run> c : creates) {
                try {
                    c.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
                    won++;
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ThreadBusyException.class);
                    busy++;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            assertThat(won).isEqualTo(1);
            assertThat(busy).isEqualTo(7);
            assertThat(await(store.inflight(thread))).hasSize(1);
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void runsInFlightAreCountedByTheirOwner(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run adaPending = await(store.create(owned(thread(), 0, "ada")));
        Run adaRunning = await(store.create(owned(thread(), 1, "ada")));
        Run adaDone = await(store.create(owned(thread(), 2, "ada")));
        await(store.create(owned(thread(), 3, "bo")));
        await(store.create(run(thread(), 4, MultitaskStrategy.ENQUEUE))); // no owner (auth mode none)
        Instant now = T0.plusSeconds(10);
        // claimed oldest first: ada's first three
        assertThat(await(store.claimNext("w1", now))).map(Run::runId).contains(adaPending.runId());
        assertThat(await(store.claimNext("w1", now))).map(Run::runId).contains(adaRunning.runId());
        assertThat(await(store.claimNext("w1", now))).map(Run::runId).contains(adaDone.runId());
        assertThat(await(store.finish(adaDone.runId(), "w1", RunStatus.SUCCESS, now))).isTrue();
        assertThat(await(store.release(adaPending.runId(), "w1", now))).as("pending again").isTrue();

        assertThat(await(store.countInflight("ada"))).isEqualTo(2);
        assertThat(await(store.countInflight("bo"))).isEqualTo(1);
        assertThat(await(store.countInflight("cy"))).isZero();
        assertThat(await(store.countInflight(null))).as("every run in flight").isEqualTo(4);
        assertThat(await(store.cancelPending(adaPending.runId(), now))).isTrue();
        assertThat(await(store.countInflight("ada"))).isEqualTo(1);
    }

    private static Run owned(String thread, int i, String owner) {
        Run r = run(thread, i, MultitaskStrategy.ENQUEUE);
        return new Run(r.runId(), thread, r.assistantId(), r.status(), Map.of("owner", owner, "i", i), r.multitaskStrategy(), r.spec(),
                r.createdAt(), r.updatedAt(), r.notBefore(), null);
    }

    // ---- claim

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void claimTakesTheOldestPendingRunAndMarksItRunning(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String a = thread();
        String b = thread();
        Run b1 = await(store.create(run(b, 2, MultitaskStrategy.ENQUEUE)));
        Run a1 = await(store.create(run(a, 1, MultitaskStrategy.ENQUEUE)));
        Run a2 = await(store.create(run(a, 3, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(10);

        Run claimed = await(store.claimNext("w1", now)).orElseThrow();
        assertThat(claimed.runId()).isEqualTo(a1.runId());
        assertThat(claimed.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(claimed.workerId()).isEqualTo("w1");
        assertThat(claimed.updatedAt()).isEqualTo(now);
        assertThat(await(store.get(a1.runId()))).contains(claimed);

        // a2 is older than nothing else pending but its thread is busy: b1 comes next
        assertThat(await(store.claimNext("w2", now)).orElseThrow().runId()).isEqualTo(b1.runId());
        assertThat(await(store.claimNext("w3", now))).isEmpty();

        await(store.finish(a1.runId(), "w1", RunStatus.SUCCESS, now));
        assertThat(await(store.claimNext("w3", now)).orElseThrow().runId()).isEqualTo(a2.runId());
        assertThat(await(store.claimNext("w3", now))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aClaimOfManyTakesUpToItsLimitOldestFirstAndOneRunPerThread(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String a = thread();
        String b = thread();
        String c = thread();
        String busy = thread();
        Run a1 = await(store.create(run(a, 1, MultitaskStrategy.ENQUEUE)));
        Run a2 = await(store.create(run(a, 2, MultitaskStrategy.ENQUEUE)));
        Run b1 = await(store.create(run(b, 3, MultitaskStrategy.ENQUEUE)));
        Run busy1 = await(store.create(run(busy, 0, MultitaskStrategy.ENQUEUE)));
        await(store.create(run(busy, 4, MultitaskStrategy.ENQUEUE)));
        Run c1 = await(store.create(run(c, 5, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(10);
        assertThat(await(store.claimNext("w0", now))).map(Run::runId).contains(busy1.runId());

        List<Run> claimed = await(store.claim("w1", now, 2));
        assertThat(claimed).extracting(Run::runId).as("the two oldest, of two threads").containsExactly(a1.runId(), b1.runId());
        assertThat(claimed).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(RunStatus.RUNNING);
            assertThat(r.workerId()).isEqualTo("w1");
            assertThat(await(store.get(r.runId()))).contains(r);
        });
        assertThat(await(store.claim("w2", now, 10))).extracting(Run::runId)
                .as("a thread's next run waits for its running one; so does a busy thread's").containsExactly(c1.runId());
        assertThat(await(store.claim("w2", now, 10))).isEmpty();
        await(store.finish(a1.runId(), "w1", RunStatus.SUCCESS, now));
        assertThat(await(store.claim("w2", now, 10))).extracting(Run::runId).containsExactly(a2.runId());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void runsCreatedAtTheSameTimeAreClaimedInRunIdOrder(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        List<String> ids = List.of("run-c", "run-a", "run-b");
        for (String id : ids) {
            await(store.create(new Run(id + "-" + UUID.randomUUID(), thread(), "agent", RunStatus.PENDING, null, MultitaskStrategy.ENQUEUE,
                    null, T0, T0, T0, null)));
        }
        List<String> claimed = IntStream.range(0, 3)
                .mapToObj(i -> await(store.claimNext("w", T0)).orElseThrow().runId().substring(0, 5)).toList();
        assertThat(claimed).containsExactly("run-a", "run-b", "run-c");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aRunIsNotClaimedBeforeItsNotBefore(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run later = new Run(UUID.randomUUID().toString(), thread(), "agent", RunStatus.PENDING, null, MultitaskStrategy.ENQUEUE, null,
                T0, T0, T0.plusSeconds(30), null);
        await(store.create(later));
        assertThat(await(store.claimNext("w", T0.plusSeconds(29)))).isEmpty();
        assertThat(await(store.claimNext("w", T0.plusSeconds(30)))).map(Run::runId).contains(later.runId());
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void concurrentClaimsOnOneThreadLeaveAtMostOneRunning(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        for (int i = 0; i < 6; i++) {
            await(store.create(run(thread, i, MultitaskStrategy.ENQUEUE)));
        }
        List<CompletableFuture<Optional<Run>>> claims = IntStream.range(0, 12)
                .mapToObj(i -> store.claimNext("w" + i, T0.plusSeconds(60)).subscribeAsCompletionStage()).toList();
        long claimed = claims.stream().map(CompletableFuture::join).filter(Optional::isPresent).count();
        assertThat(claimed).isLessThanOrEqualTo(1);
        List<Run> running = await(store.listByThread(thread, 100, 0, RunStatus.RUNNING));
        assertThat(running).hasSizeLessThanOrEqualTo(1);
        // one is claimed in the end, and it is the oldest
        if (running.isEmpty()) {
            assertThat(await(store.claimNext("w", T0.plusSeconds(60)))).isPresent();
            running = await(store.listByThread(thread, 100, 0, RunStatus.RUNNING));
        }
        assertThat(running).singleElement().extracting(Run::createdAt).isEqualTo(T0);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void concurrentClaimsOnManyThreadsClaimEachRunOnce(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        for (int i = 0; i < 10; i++) {
            await(store.create(run(thread(), i, MultitaskStrategy.ENQUEUE)));
        }
        List<CompletableFuture<Optional<Run>>> claims = IntStream.range(0, 16)
                .mapToObj(i -> store.claimNext("w" + i, T0.plusSeconds(60)).subscribeAsCompletionStage()).toList();
        List<String> claimed = claims.stream().map(CompletableFuture::join).flatMap(Optional::stream).map(Run::runId).toList();
        assertThat(claimed).doesNotHaveDuplicates();
        // a claim that lost a race may come back empty; what is left is claimed afterwards
        while (await(store.claimNext("w", T0.plusSeconds(60))).isPresent()) {
            // drain
        }
        assertThat(await(store.claimNext("w", T0.plusSeconds(60)))).isEmpty();
    }

    // ---- status

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void finishRecordsTheEndOfARunningRunOnly(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run run = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        assertThat(await(store.finish(run.runId(), "w", RunStatus.SUCCESS, T0))).as("a pending run is not finished").isFalse();
        await(store.claimNext("w", T0));
        Instant at = T0.plusSeconds(3);
        assertThat(await(store.finish(run.runId(), "w", RunStatus.ERROR, at))).isTrue();
        Run finished = await(store.get(run.runId())).orElseThrow();
        assertThat(finished.status()).isEqualTo(RunStatus.ERROR);
        assertThat(finished.updatedAt()).isEqualTo(at);

        assertThat(await(store.finish(run.runId(), "w", RunStatus.SUCCESS, at.plusSeconds(1)))).isFalse();
        assertThat(await(store.get(run.runId())).orElseThrow()).isEqualTo(finished);
        assertThat(await(store.finish(UUID.randomUUID().toString(), "w", RunStatus.SUCCESS, at))).isFalse();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void onlyTheWorkerHoldingARunRecordsItsEnd(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run run = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        await(store.claimNext("old", T0));
        // the old worker's hold lapsed and another took the run over: the old one's late record changes nothing
        Worker taker = Worker.boot("other-replica");
        await(store.requeueOrphans(taker, List.of(), T0.plusSeconds(60), T0.plusSeconds(60)));
        assertThat(await(store.claimNext(taker.id(), T0.plusSeconds(60))).orElseThrow().runId()).isEqualTo(run.runId());
        assertThat(await(store.finish(run.runId(), "old", RunStatus.ERROR, T0.plusSeconds(61)))).isFalse();
        assertThat(await(store.get(run.runId())).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(await(store.finish(run.runId(), taker.id(), RunStatus.SUCCESS, T0.plusSeconds(62)))).isTrue();
        assertThat(await(store.get(run.runId())).orElseThrow().status()).isEqualTo(RunStatus.SUCCESS);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void deleteAndDeleteThread(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        String other = thread();
        Run a = await(store.create(run(thread, 0, MultitaskStrategy.ENQUEUE)));
        await(store.create(run(thread, 1, MultitaskStrategy.ENQUEUE)));
        Run kept = await(store.create(run(other, 2, MultitaskStrategy.ENQUEUE)));

        assertThat(await(store.delete(a.runId()))).isTrue();
        assertThat(await(store.delete(a.runId()))).isFalse();
        assertThat(await(store.get(a.runId()))).isEmpty();

        await(store.deleteThread(thread));
        assertThat(await(store.listByThread(thread, 10, 0, null))).isEmpty();
        assertThat(await(store.get(kept.runId()))).isPresent();
        await(store.deleteThread(thread()));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void claimsFollowEveryChangeOfStatusAndDeletion(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        Instant now = T0.plusSeconds(60);
        Run first = await(store.create(run(thread, 0, MultitaskStrategy.ENQUEUE)));
        Run cancelled = await(store.create(run(thread, 1, MultitaskStrategy.ENQUEUE)));
        Run third = await(store.create(run(thread, 2, MultitaskStrategy.ENQUEUE)));
        assertThat(await(store.claimNext("w", now)).orElseThrow().runId()).isEqualTo(first.runId());
        assertThat(await(store.claimNext("w", now))).isEmpty(); // the thread runs one already
        assertThat(await(store.cancelPending(cancelled.runId(), now))).isTrue();

        assertThat(await(store.delete(first.runId()))).isTrue(); // a deleted running run frees its thread
        assertThat(await(store.claimNext("w", now)).orElseThrow().runId()).isEqualTo(third.runId());
        await(store.finish(third.runId(), "w", RunStatus.SUCCESS, now));
        assertThat(await(store.claimNext("w", now))).isEmpty(); // the cancelled run is never claimed
        assertThat(await(store.inflight(thread))).isEmpty();

        Run next = await(store.create(run(thread, 3, MultitaskStrategy.REJECT))); // idle again: reject lets it in
        await(store.deleteThread(thread));
        assertThat(await(store.get(next.runId()))).isEmpty();
        assertThat(await(store.claimNext("w", now))).isEmpty(); // a deleted thread's pending run is gone
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void requeueOrphansMakesRunsOfDeadWorkersPendingAgain(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Worker me = Worker.boot("replica-a");
        Run dead = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run live = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Run done = await(store.create(run(thread(), 2, MultitaskStrategy.ENQUEUE)));
        Run waiting = await(store.create(run(thread(), 3, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        assertThat(await(store.claimNext("old", now)).orElseThrow().runId()).isEqualTo(dead.runId());
        assertThat(await(store.claimNext(me.id(), now)).orElseThrow().runId()).isEqualTo(live.runId());
        assertThat(await(store.claimNext("old", now)).orElseThrow().runId()).isEqualTo(done.runId());
        await(store.finish(done.runId(), "old", RunStatus.SUCCESS, now));

        Instant at = now.plusSeconds(1);
        List<Run> requeued = await(store.requeueOrphans(me, List.of(live.runId()), at, at));
        assertThat(requeued).extracting(Run::runId).containsExactly(dead.runId());
        Run again = await(store.get(dead.runId())).orElseThrow();
        assertThat(requeued.get(0)).isEqualTo(again);
        assertThat(again.status()).isEqualTo(RunStatus.PENDING);
        assertThat(again.workerId()).isNull();
        assertThat(again.updatedAt()).isEqualTo(at);
        assertThat(await(store.get(live.runId())).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(await(store.get(done.runId())).orElseThrow().status()).isEqualTo(RunStatus.SUCCESS);
        assertThat(await(store.get(waiting.runId())).orElseThrow().status()).isEqualTo(RunStatus.PENDING);

        // the requeued run is older than the one waiting: it is claimed first
        assertThat(await(store.claimNext(me.id(), at)).orElseThrow().runId()).isEqualTo(dead.runId());
        assertThat(await(store.requeueOrphans(me, List.of(live.runId(), dead.runId()), at, at))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void onlyRunsWhoseWorkerStoppedRenewingAreRequeued(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run dead = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run alive = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        assertThat(await(store.claimNext("dead", now)).orElseThrow().runId()).isEqualTo(dead.runId());
        assertThat(await(store.claimNext("alive", now)).orElseThrow().runId()).isEqualTo(alive.runId());

        // the live worker renews its hold on the run it executes; the dead one does not
        Instant later = now.plusSeconds(20);
        assertThat(await(store.renew("alive", List.of(alive.runId()), later))).containsExactly(alive.runId());
        assertThat(await(store.get(alive.runId())).orElseThrow().updatedAt()).isEqualTo(later);
        assertThat(await(store.get(alive.runId())).orElseThrow().workerId()).isEqualTo("alive");
        assertThat(await(store.renew("nobody", List.of(alive.runId(), dead.runId()), later))).isEmpty();

        // a new worker starts: with a lease of 30 s, neither hold has lapsed yet ...
        Worker fresh = Worker.boot("replica-new");
        Instant start = now.plusSeconds(25);
        assertThat(await(store.requeueOrphans(fresh, List.of(), start.minusSeconds(30), start))).isEmpty();
        // ... then the dead worker's has, the live worker's has not
        Instant check = now.plusSeconds(35);
        List<Run> requeued = await(store.requeueOrphans(fresh, List.of(), check.minusSeconds(30), check));
        assertThat(requeued).extracting(Run::runId).containsExactly(dead.runId());
        assertThat(await(store.get(dead.runId())).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
        assertThat(await(store.get(alive.runId())).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(await(store.get(alive.runId())).orElseThrow().workerId()).isEqualTo("alive");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aWorkerRenewsOnlyTheRunsItNames(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run executing = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run abandoned = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        await(store.claimNext("w", now));
        await(store.claimNext("w", now));
        // the worker executes one of its two runs: only that one's hold is renewed, the other's lapses
        Instant later = now.plusSeconds(20);
        assertThat(await(store.renew("w", List.of(executing.runId()), later))).containsExactly(executing.runId());
        assertThat(await(store.get(abandoned.runId())).orElseThrow().updatedAt()).isEqualTo(now);
        Instant check = now.plusSeconds(35);
        assertThat(await(store.requeueOrphans(Worker.boot("other"), List.of(), check.minusSeconds(30), check)))
                .extracting(Run::runId).containsExactly(abandoned.runId());
        assertThat(await(store.renew("w", List.of(), check))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aRenewalLeavesOutTheRunsAnotherWorkerTookOver(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run run = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run kept = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        await(store.claimNext("paused", now));
        await(store.claimNext("paused", now));
        await(store.renew("paused", List.of(kept.runId()), now.plusSeconds(31)));
        // the worker was paused past its lease on one run: another requeued it and executes it now
        Instant check = now.plusSeconds(35);
        assertThat(await(store.requeueOrphans(Worker.boot("other"), List.of(), check.minusSeconds(30), check)))
                .extracting(Run::runId).containsExactly(run.runId());
        assertThat(await(store.claimNext("other", check)).orElseThrow().runId()).isEqualTo(run.runId());
        // the paused worker wakes and renews both: it learns which it still holds
        assertThat(await(store.renew("paused", List.of(run.runId(), kept.runId()), check.plusSeconds(1)))).containsExactly(kept.runId());
        assertThat(await(store.get(run.runId())).orElseThrow().workerId()).isEqualTo("other");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aWorkersOwnRunItDoesNotHoldIsRequeuedOnceItsLeaseLapses(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run lost = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run held = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Worker me = Worker.boot("replica-me");
        Instant now = T0.plusSeconds(60);
        // the answer of the first claim was lost on the way: the worker does not know it holds that run
        await(store.claimNext(me.id(), now));
        await(store.claimNext(me.id(), now));
        Instant check = now.plusSeconds(35);
        assertThat(await(store.requeueOrphans(me, List.of(held.runId()), check.minusSeconds(30), check)))
                .extracting(Run::runId).containsExactly(lost.runId());
        assertThat(await(store.get(held.runId())).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aRestartedReplicaTakesBackItsFormerRunsAtOnce(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        Run mine = await(store.create(run(thread(), 0, MultitaskStrategy.ENQUEUE)));
        Run others = await(store.create(run(thread(), 1, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        Worker before = Worker.boot("host-a:8080");
        Worker neighbour = Worker.boot("host-a:8081");
        await(store.claimNext(before.id(), now));
        await(store.claimNext(neighbour.id(), now));
        await(store.renew(before.id(), List.of(mine.runId()), now.plusSeconds(1)));

        // host-a:8080 was killed and starts again a second later: its former self's run is requeued although its hold
        // has not lapsed; the run of the live process on the other port stays where it is
        Worker after = Worker.boot("host-a:8080");
        Instant restart = now.plusSeconds(2);
        // not before its port is bound, which proves it is the only live process of its replica
        assertThat(await(store.requeueOrphans(after.unproven(), List.of(), restart.minusSeconds(30), restart))).isEmpty();
        List<Run> requeued = await(store.requeueOrphans(after, List.of(), restart.minusSeconds(30), restart));
        assertThat(requeued).extracting(Run::runId).containsExactly(mine.runId());
        assertThat(await(store.get(mine.runId())).orElseThrow().status()).isEqualTo(RunStatus.PENDING);
        assertThat(await(store.get(others.runId())).orElseThrow().workerId()).isEqualTo(neighbour.id());
        // and the restarted process's own runs are never its former self's
        assertThat(await(store.claimNext(after.id(), restart)).orElseThrow().runId()).isEqualTo(mine.runId());
        assertThat(await(store.requeueOrphans(after, List.of(mine.runId()), restart.minusSeconds(30), restart))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void aDrainingWorkerHandsItsRunBackForAnotherToClaimAtOnce(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        Run handed = await(store.create(run(thread, 0, MultitaskStrategy.ENQUEUE)));
        Run queued = await(store.create(run(thread, 1, MultitaskStrategy.ENQUEUE)));
        Run elsewhere = await(store.create(run(thread(), 2, MultitaskStrategy.ENQUEUE)));
        Instant now = T0.plusSeconds(60);
        assertThat(await(store.claimNext("leaving", now)).orElseThrow().runId()).isEqualTo(handed.runId());
        assertThat(await(store.claimNext("other", now)).orElseThrow().runId()).isEqualTo(elsewhere.runId());

        // only the holder hands a run back, and only a running one
        assertThat(await(store.release(handed.runId(), "other", now))).isFalse();
        assertThat(await(store.release(elsewhere.runId(), "leaving", now))).isFalse();
        assertThat(await(store.release(queued.runId(), "leaving", now))).isFalse();
        assertThat(await(store.release("no-such-run", "leaving", now))).isFalse();
        assertThat(await(store.get(handed.runId())).orElseThrow().workerId()).isEqualTo("leaving");

        Instant at = now.plusSeconds(1);
        assertThat(await(store.release(handed.runId(), "leaving", at))).isTrue();
        Run back = await(store.get(handed.runId())).orElseThrow();
        assertThat(back.status()).isEqualTo(RunStatus.PENDING);
        assertThat(back.workerId()).isNull();
        assertThat(back.updatedAt()).isEqualTo(at);
        assertThat(await(store.release(handed.runId(), "leaving", at))).as("handed back once").isFalse();
        assertThat(await(store.get(elsewhere.runId())).orElseThrow().workerId()).isEqualTo("other");

        // claimable at once, before the run queued after it on its thread, without waiting for a lease to lapse
        assertThat(await(store.claimNext("next", at)).orElseThrow().runId()).isEqualTo(handed.runId());
        assertThat(await(store.get(handed.runId())).orElseThrow().workerId()).isEqualTo("next");
        assertThat(await(store.finish(handed.runId(), "leaving", RunStatus.SUCCESS, at))).as("the old holder records nothing").isFalse();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#runs")
    void unstorableTextIsRefusedAndNothingIsWritten(Supplier<RunStore> stores) {
        RunStore store = stores.get();
        String thread = thread();
        for (Map<String, Object> bad : UNSTORABLE) {
            Run inMetadata = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, bad, null, RunSpec.NONE, T0, null, null, null);
            Run inKwargs = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, Map.of(), null,
                    RunSpecJson.fromKwargs(Map.of("input", bad)), T0, null,
                    null, null);
            assertThatThrownBy(() -> await(store.create(inMetadata))).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> await(store.create(inKwargs))).isInstanceOf(InvalidInputException.class);
            assertThat(await(store.get(inMetadata.runId()))).isEmpty();
            assertThat(await(store.get(inKwargs.runId()))).isEmpty();
        }
        assertThat(await(store.listByThread(thread, 10, 0, null))).isEmpty();
        // what only looks odd is kept as it was
        Run odd = new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, ODD, null, RunSpecJson.fromKwargs(Map.of("input", ODD)),
                T0, null, null, null);
        Run created = await(store.create(odd));
        assertThat(created.metadata()).isEqualTo(ODD);
        assertThat(RunSpecJson.toKwargs(await(store.get(odd.runId())).orElseThrow().spec())).isEqualTo(Map.of("input", ODD));
    }

    // ---- helpers

    /**
     * JSON objects no store can keep as they are: NUL in a value or a key (PostgreSQL's jsonb refuses it; the in-memory
     * stores refuse it alike), a lone surrogate (UTF-8 has none: it would be kept as {@code ?}). Every store refuses them.
     */
    static final List<Map<String, Object>> UNSTORABLE = List.of(Map.of("note", "a\u0000b"), Map.of("deep", List.of(Map.of("k\u0000", 1))),
            Map.of("note", "a\ud800b"), Map.of("note", "\udc00"));

    /** Text that only looks odd: control characters, a surrogate pair, U+FFFD. Every store keeps it exactly. */
    static final Map<String, Object> ODD = Map.of("note", "tab\t bell\u0007 smile \ud83d\ude00 \ufffd", "k\u0001", "v");


    /** A run of {@code thread} created {@code i} milliseconds after T0, claimable at once. */
    public static Run run(String thread, int i, MultitaskStrategy strategy) {
        Instant at = T0.plusMillis(i);
        return new Run(UUID.randomUUID().toString(), thread, "agent", RunStatus.PENDING, Map.of("i", i), strategy,
                RunSpecJson.fromKwargs(Map.of("input", Map.of("n", i))), at, at, at, null);
    }

    static String thread() {
        return "thread-" + UUID.randomUUID();
    }

    static <T> T await(Uni<T> uni) {
        try {
            return uni.await().atMost(TIMEOUT);
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }
}
