package io.conduit.runs;

import static io.conduit.runs.RunStoreContractTest.await;
import static io.conduit.runs.RunStoreContractTest.thread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every {@link ThreadStore} must share; runs against each store of {@link RunStores#threads()}. */
class ThreadStoreContractTest {

    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void createThenGet(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        Map<String, Object> metadata = Map.of("user", "ada", "tags", List.of("a", "b"), "deep", Map.of("n", 2, "s", "ü \"q\""));
        ThreadRecord created = await(store.create(id, metadata, T0.plusSeconds(3600), false, T0));
        ThreadRecord expected = new ThreadRecord(id, metadata, ThreadStatus.IDLE, T0, T0, T0.plusSeconds(3600));
        assertThat(created).isEqualTo(expected);
        assertThat(await(store.get(id))).contains(expected);
        assertThat(await(store.get(thread()))).isEmpty();

        ThreadRecord bare = await(store.create(thread(), null, null, false, T0));
        assertThat(bare.metadata()).isEmpty();
        assertThat(bare.expiresAt()).isNull();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void createAnExistingThreadRaisesOrReturnsIt(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        ThreadRecord first = await(store.create(id, Map.of("v", 1), null, false, T0));
        assertThatThrownBy(() -> await(store.create(id, Map.of("v", 2), null, false, T0.plusSeconds(1))))
                .isInstanceOf(ThreadExistsException.class);
        assertThat(await(store.create(id, Map.of("v", 3), null, true, T0.plusSeconds(2)))).isEqualTo(first);
        assertThat(await(store.get(id))).contains(first);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void patchMergesMetadata(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, Map.of("a", 1, "b", Map.of("x", 1)), null, false, T0));
        ThreadRecord patched = await(store.patchMetadata(id, Map.of("b", Map.of("y", 2), "c", "new"), T0.plusSeconds(1))).orElseThrow();
        assertThat(patched.metadata()).isEqualTo(Map.of("a", 1, "b", Map.of("y", 2), "c", "new"));
        assertThat(patched.updatedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(patched.createdAt()).isEqualTo(T0);
        assertThat(await(store.get(id))).contains(patched);
        assertThat(await(store.patchMetadata(thread(), Map.of("a", 1), T0))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void aConditionalPatchWritesOnlyOverTheValueTheWriterRead(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, Map.of("a", 1), null, false, T0));
        // two writers read the thread unbound; the first binds it, the second finds it bound and changes nothing
        ThreadRecord first = await(store.patchMetadataIf(id, "graph_id", null, Map.of("graph_id", "g1", "assistant_id", "x"),
                T0.plusSeconds(1))).orElseThrow();
        assertThat(first.metadata()).isEqualTo(Map.of("a", 1, "graph_id", "g1", "assistant_id", "x"));
        assertThat(await(store.patchMetadataIf(id, "graph_id", null, Map.of("graph_id", "g2", "assistant_id", "y"),
                T0.plusSeconds(2)))).contains(first);
        assertThat(await(store.get(id))).contains(first);
        // the value already there, or the one the writer read, lets the patch through
        assertThat(await(store.patchMetadataIf(id, "graph_id", null, Map.of("graph_id", "g1", "assistant_id", "z"),
                T0.plusSeconds(3))).orElseThrow().metadata()).isEqualTo(Map.of("a", 1, "graph_id", "g1", "assistant_id", "z"));
        ThreadRecord moved = await(store.patchMetadataIf(id, "graph_id", "g1", Map.of("graph_id", "g3"), T0.plusSeconds(4))).orElseThrow();
        assertThat(moved.metadata()).isEqualTo(Map.of("a", 1, "graph_id", "g3", "assistant_id", "z"));
        assertThat(moved.updatedAt()).isEqualTo(T0.plusSeconds(4));
        assertThat(await(store.patchMetadataIf(thread(), "graph_id", null, Map.of("graph_id", "g1"), T0))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void ofSimultaneousConditionalPatchesOfAFreshThreadOneWins(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        List<String> ids = IntStream.range(0, 20).mapToObj(i -> thread()).toList();
        ids.forEach(id -> await(store.create(id, null, null, false, T0)));
        // every writer has read the thread unbound; all write at once
        List<CompletableFuture<ThreadRecord>> writes = new ArrayList<>();
        for (String id : ids) {
            for (String graph : List.of("g1", "g2", "g3")) {
                writes.add(store.patchMetadataIf(id, "graph_id", null, Map.of("graph_id", graph), T0.plusSeconds(1))
                        .map(java.util.Optional::orElseThrow).subscribeAsCompletionStage());
            }
        }
        List<ThreadRecord> seen = writes.stream().map(CompletableFuture::join).toList();
        for (String id : ids) {
            Object bound = await(store.get(id)).orElseThrow().metadata().get("graph_id");
            assertThat(seen.stream().filter(t -> t.threadId().equals(id)).map(t -> t.metadata().get("graph_id")))
                    .as("every writer of %s sees the one graph that won", id).containsOnly(bound);
        }
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void setStatusAndDelete(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, null, null, false, T0));
        await(store.setStatus(id, ThreadStatus.BUSY, T0.plusSeconds(1)));
        ThreadRecord busy = await(store.get(id)).orElseThrow();
        assertThat(busy.status()).isEqualTo(ThreadStatus.BUSY);
        assertThat(busy.updatedAt()).isEqualTo(T0.plusSeconds(1));
        await(store.setStatus(thread(), ThreadStatus.BUSY, T0)); // unknown: nothing happens

        assertThat(await(store.delete(id))).isTrue();
        assertThat(await(store.delete(id))).isFalse();
        assertThat(await(store.get(id))).isEmpty();
        // a thread created again starts afresh
        await(store.create(id, null, null, false, T0.plusSeconds(2)));
        assertThat(await(store.get(id)).orElseThrow().status()).isEqualTo(ThreadStatus.IDLE);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void searchFiltersByMetadataContainmentAndStatus(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String a = "a-" + thread();
        String b = "b-" + thread();
        String c = "c-" + thread();
        await(store.create(a, Map.of("user", "ada", "org", Map.of("id", 1, "tier", "pro"), "tags", List.of("x", "y")), null, false, T0));
        await(store.create(b, Map.of("user", "ada", "org", Map.of("id", 2)), null, false, T0.plusSeconds(1)));
        await(store.create(c, Map.of("user", "bob"), null, false, T0.plusSeconds(2)));
        await(store.setStatus(b, ThreadStatus.BUSY, T0.plusSeconds(3)));

        assertThat(ids(await(store.search(Map.of("user", "ada"), null, 10, 0, "thread_id", "asc")))).containsExactly(a, b);
        assertThat(ids(await(store.search(Map.of("org", Map.of("id", 1)), null, 10, 0, null, null)))).containsExactly(a);
        assertThat(ids(await(store.search(Map.of("org", Map.of("id", 1.0)), null, 10, 0, null, null)))).containsExactly(a);
        assertThat(ids(await(store.search(Map.of("tags", List.of("y")), null, 10, 0, null, null)))).containsExactly(a);
        assertThat(ids(await(store.search(Map.of("user", "ada", "org", Map.of("tier", "free")), null, 10, 0, null, null)))).isEmpty();
        assertThat(ids(await(store.search(Map.of("missing", "x"), null, 10, 0, null, null)))).isEmpty();
        assertThat(ids(await(store.search(Map.of("user", "ada"), ThreadStatus.BUSY, 10, 0, null, null)))).containsExactly(b);
        assertThat(ids(await(store.search(null, ThreadStatus.IDLE, 10, 0, "thread_id", "asc")))).containsExactly(a, c);
        assertThat(ids(await(store.search(Map.of(), null, 10, 0, "thread_id", "asc")))).containsExactly(a, b, c);

        assertThat(await(store.count(Map.of("user", "ada"), null))).isEqualTo(2);
        assertThat(await(store.count(Map.of("user", "ada"), ThreadStatus.IDLE))).isEqualTo(1);
        assertThat(await(store.count(null, null))).isEqualTo(3);
        assertThat(await(store.count(Map.of("user", "eve"), null))).isZero();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void searchSortsAndPages(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        List<String> byCreation = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            // ids in the reverse order of creation, to tell the sorts apart
            String id = (char) ('e' - i) + "-" + thread();
            byCreation.add(id);
            await(store.create(id, Map.of("k", "v"), null, false, T0.plusSeconds(i)));
        }
        await(store.setStatus(byCreation.get(1), ThreadStatus.ERROR, T0.plusSeconds(100)));
        List<String> newestFirst = byCreation.reversed();

        assertThat(ids(await(store.search(null, null, 10, 0, null, null)))).containsExactlyElementsOf(newestFirst);
        assertThat(ids(await(store.search(null, null, 10, 0, "created_at", "asc")))).containsExactlyElementsOf(byCreation);
        assertThat(ids(await(store.search(null, null, 2, 1, "created_at", "desc")))).containsExactlyElementsOf(newestFirst.subList(1, 3));
        assertThat(ids(await(store.search(null, null, 10, 4, "created_at", "desc")))).containsExactly(newestFirst.get(4));
        assertThat(ids(await(store.search(null, null, 10, 5, "created_at", "desc")))).isEmpty();
        assertThat(ids(await(store.search(null, null, 10, 0, "thread_id", "asc"))))
                .containsExactlyElementsOf(byCreation.stream().sorted().toList());
        assertThat(ids(await(store.search(null, null, 10, 0, "thread_id", "desc"))))
                .containsExactlyElementsOf(byCreation.stream().sorted(Comparator.reverseOrder()).toList());
        assertThat(ids(await(store.search(null, null, 1, 0, "updated_at", "desc")))).containsExactly(byCreation.get(1));
        assertThat(ids(await(store.search(null, null, 1, 0, "status", "asc")))).containsExactly(byCreation.get(1));
        assertThatThrownBy(() -> await(store.search(null, null, 10, 0, "metadata; DROP TABLE x", "asc")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> await(store.search(null, null, 10, 0, "created_at", "sideways")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void reserveSeqGivesDisjointIncreasingBlocks(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, null, null, false, T0));
        long first = await(store.reserveSeq(id, 10));
        long second = await(store.reserveSeq(id, 1));
        long third = await(store.reserveSeq(id, 5));
        assertThat(second).isGreaterThanOrEqualTo(first + 10);
        assertThat(third).isGreaterThanOrEqualTo(second + 1);
        assertThatThrownBy(() -> await(store.reserveSeq(thread(), 1))).isInstanceOf(NoSuchElementException.class);
        assertThatThrownBy(() -> await(store.reserveSeq(id, 0))).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void beginRunMarksTheThreadBusyAndReservesABlockAfterTheOthers(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, null, null, false, T0));
        long before = await(store.reserveSeq(id, 3));
        long first = await(store.beginRun(id, 10, T0.plusSeconds(5)));
        assertThat(first).isGreaterThanOrEqualTo(before + 3);
        assertThat(await(store.reserveSeq(id, 1))).isGreaterThanOrEqualTo(first + 10);
        ThreadRecord t = await(store.get(id)).orElseThrow();
        assertThat(t.status()).isEqualTo(ThreadStatus.BUSY);
        assertThat(t.updatedAt()).isEqualTo(T0.plusSeconds(5));
        assertThatThrownBy(() -> await(store.beginRun(thread(), 1, T0))).isInstanceOf(NoSuchElementException.class);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void concurrentReservationsNeverOverlap(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        await(store.create(id, null, null, false, T0));
        int size = 7;
        List<CompletableFuture<Long>> calls = IntStream.range(0, 20)
                .mapToObj(i -> store.reserveSeq(id, size).subscribeAsCompletionStage()).toList();
        List<Long> starts = calls.stream().map(CompletableFuture::join).sorted().toList();
        for (int i = 1; i < starts.size(); i++) {
            assertThat(starts.get(i)).isGreaterThanOrEqualTo(starts.get(i - 1) + size);
        }
        assertThat(await(store.reserveSeq(id, 1))).isGreaterThanOrEqualTo(starts.getLast() + size);
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void expiredListsThreadsWhoseTimeHasPassed(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String early = thread();
        String exact = thread();
        String later = thread();
        await(store.create(early, null, T0.plusSeconds(1), false, T0));
        await(store.create(exact, null, T0.plusSeconds(5), false, T0));
        await(store.create(later, null, T0.plusSeconds(9), false, T0));
        await(store.create(thread(), null, null, false, T0));
        assertThat(await(store.expired(T0.plusSeconds(5), 10))).containsExactly(early, exact);
        assertThat(await(store.expired(T0.plusSeconds(5), 1))).containsExactly(early);
        assertThat(await(store.expired(T0, 10))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.runs.RunStores#threads")
    void unstorableTextIsRefusedAndNothingIsWritten(Supplier<ThreadStore> stores) {
        ThreadStore store = stores.get();
        String id = thread();
        for (Map<String, Object> bad : RunStoreContractTest.UNSTORABLE) {
            assertThatThrownBy(() -> await(store.create(id, bad, null, false, T0))).isInstanceOf(InvalidInputException.class);
        }
        assertThat(await(store.get(id))).isEmpty();
        ThreadRecord created = await(store.create(id, Map.of("a", 1), null, false, T0));
        for (Map<String, Object> bad : RunStoreContractTest.UNSTORABLE) {
            assertThatThrownBy(() -> await(store.patchMetadata(id, bad, T0.plusSeconds(1)))).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> await(store.search(bad, null, 10, 0, "created_at", "desc"))).isInstanceOf(InvalidInputException.class);
            assertThatThrownBy(() -> await(store.count(bad, null))).isInstanceOf(InvalidInputException.class);
        }
        assertThat(await(store.get(id))).as("metadata and updated_at unchanged").contains(created);
        ThreadRecord odd = await(store.patchMetadata(id, RunStoreContractTest.ODD, T0.plusSeconds(2))).orElseThrow();
        assertThat(odd.metadata()).containsAllEntriesOf(RunStoreContractTest.ODD);
        assertThat(await(store.get(id)).orElseThrow().metadata()).containsAllEntriesOf(RunStoreContractTest.ODD);
    }

    private static List<String> ids(List<ThreadRecord> threads) {
        return threads.stream().map(ThreadRecord::threadId).toList();
    }
}
