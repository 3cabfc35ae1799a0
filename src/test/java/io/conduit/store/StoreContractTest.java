package io.conduit.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What every {@link Store} must do, run against each implementation ({@link Stores#all}). */
class StoreContractTest {

    static final Instant T0 = Instant.parse("2026-11-23T12:00:00Z");
    static final List<String> ALICE = List.of("users", "alice", "memories");
    static final List<String> BOB = List.of("users", "bob", "memories");

    static <T> T await(Uni<T> u) {
        return u.await().atMost(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void putGetReplaceAndDelete(Function<Clock, Store> stores) {
        ManualClock clock = new ManualClock(T0);
        Store store = stores.apply(clock);
        await(store.put(ALICE, "food", Map.of("text", "likes pizza", "stars", 4), null));
        StoreItem got = await(store.get(ALICE, "food", false)).orElseThrow();
        assertThat(got.namespace()).isEqualTo(ALICE);
        assertThat(got.key()).isEqualTo("food");
        assertThat(got.value()).containsEntry("text", "likes pizza").containsEntry("stars", 4);
        assertThat(got.createdAt()).isEqualTo(T0);
        assertThat(got.score()).isNull();

        clock.advance(Duration.ofMinutes(1));
        await(store.put(ALICE, "food", Map.of("text", "likes pasta"), null));
        StoreItem replaced = await(store.get(ALICE, "food", false)).orElseThrow();
        assertThat(replaced.value()).isEqualTo(Map.of("text", "likes pasta"));
        assertThat(replaced.createdAt()).isEqualTo(T0);
        assertThat(replaced.updatedAt()).isEqualTo(T0.plusSeconds(60));

        assertThat(await(store.get(BOB, "food", false))).isEmpty();
        assertThat(await(store.get(List.of("users", "alice"), "food", false))).isEmpty();
        await(store.delete(ALICE, "food"));
        assertThat(await(store.get(ALICE, "food", false))).isEmpty();
        await(store.delete(ALICE, "food")); // nothing there: no error
    }

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void searchByPrefixFilterAndPage(Function<Clock, Store> stores) {
        ManualClock clock = new ManualClock(T0);
        Store store = stores.apply(clock);
        for (int i = 0; i < 5; i++) {
            clock.advance(Duration.ofSeconds(1));
            await(store.put(ALICE, "m" + i, Map.of("kind", i % 2 == 0 ? "fact" : "wish", "stars", i), null));
        }
        await(store.put(BOB, "m0", Map.of("kind", "fact", "stars", 9), null));

        List<StoreItem> alice = await(store.search(new StoreSearch(List.of("users", "alice"), null, null, 10, 0, false)));
        assertThat(alice).extracting(StoreItem::key).containsExactly("m4", "m3", "m2", "m1", "m0"); // newest first
        assertThat(await(store.search(new StoreSearch(List.of("users"), null, null, 10, 0, false)))).hasSize(6);
        assertThat(await(store.search(new StoreSearch(List.of(), null, null, 10, 0, false)))).hasSize(6);
        assertThat(await(store.search(new StoreSearch(List.of("users", "ali"), null, null, 10, 0, false)))).as("labels, not characters").isEmpty();

        assertThat(await(store.search(new StoreSearch(ALICE, Map.of("kind", "fact"), null, 10, 0, false))))
                .extracting(StoreItem::key).containsExactly("m4", "m2", "m0");
        assertThat(await(store.search(new StoreSearch(ALICE, Map.of("stars", Map.of("$gte", 2, "$lt", 4)), null, 10, 0, false))))
                .extracting(StoreItem::key).containsExactly("m3", "m2");
        assertThat(await(store.search(new StoreSearch(ALICE, Map.of("kind", Map.of("$ne", "fact")), null, 10, 0, false))))
                .extracting(StoreItem::key).containsExactly("m3", "m1");
        assertThat(await(store.search(new StoreSearch(ALICE, Map.of("stars", Map.of("$gt", "3")), null, 10, 0, false))))
                .as("a number is not compared with a string").isEmpty();
        assertThat(await(store.search(new StoreSearch(ALICE, null, null, 2, 1, false)))).extracting(StoreItem::key).containsExactly("m3", "m2");
    }

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void aQueryRanksByRelevanceAndLeavesOutWhatDoesNotMatch(Function<Clock, Store> stores) {
        Store store = stores.apply(new ManualClock(T0));
        await(store.put(ALICE, "a", Map.of("text", "Alice loves hiking in the mountains"), null));
        await(store.put(ALICE, "b", Map.of("text", "Alice works as a nurse"), null));
        await(store.put(ALICE, "c", Map.of("text", "mountains hiking trips every summer with friends"), null));

        List<StoreItem> found = await(store.search(new StoreSearch(ALICE, null, "hiking mountains", 10, 0, false)));
        assertThat(found).extracting(StoreItem::key).containsExactlyInAnyOrder("a", "c");
        assertThat(found).allSatisfy(i -> assertThat(i.score()).isPositive());
        List<StoreItem> one = await(store.search(new StoreSearch(ALICE, null, "nurse", 10, 0, false)));
        assertThat(one).extracting(StoreItem::key).containsExactly("b");
        assertThat(await(store.search(new StoreSearch(ALICE, null, "sailing", 10, 0, false)))).isEmpty();
        assertThat(await(store.search(new StoreSearch(ALICE, null, "&|!():*", 10, 0, false)))).as("query syntax is not passed through").isEmpty();
    }

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void anItemWhoseTimeToLiveLapsedIsGoneAndARefreshKeepsIt(Function<Clock, Store> stores) {
        ManualClock clock = new ManualClock(T0);
        Store store = stores.apply(clock);
        await(store.put(ALICE, "short", Map.of("v", 1), Duration.ofMinutes(10)));
        await(store.put(ALICE, "kept", Map.of("v", 2), Duration.ofMinutes(10)));
        await(store.put(ALICE, "forever", Map.of("v", 3), null));

        clock.advance(Duration.ofMinutes(8));
        assertThat(await(store.get(ALICE, "kept", true))).isPresent(); // refreshed: ten more minutes from now
        clock.advance(Duration.ofMinutes(5));
        assertThat(await(store.get(ALICE, "short", false))).isEmpty();
        assertThat(await(store.get(ALICE, "kept", false))).isPresent();
        assertThat(await(store.search(new StoreSearch(ALICE, null, null, 10, 0, false)))).extracting(StoreItem::key)
                .containsExactlyInAnyOrder("kept", "forever");
        assertThat(await(store.sweep())).isEqualTo(1);
        clock.advance(Duration.ofMinutes(10));
        assertThat(await(store.get(ALICE, "kept", false))).isEmpty();
        assertThat(await(store.get(ALICE, "forever", false))).map(StoreItem::value).isEqualTo(Optional.of(Map.of("v", 3)));
    }

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void namespacesAreListedByPrefixSuffixAndDepth(Function<Clock, Store> stores) {
        Store store = stores.apply(new ManualClock(T0));
        await(store.put(ALICE, "k", Map.of(), null));
        await(store.put(BOB, "k", Map.of(), null));
        await(store.put(List.of("users", "bob", "skills"), "k", Map.of(), null));
        await(store.put(List.of("docs"), "k", Map.of(), null));

        assertThat(await(store.namespaces(List.of(), List.of(), null, 100, 0)))
                .containsExactly(List.of("docs"), ALICE, BOB, List.of("users", "bob", "skills"));
        assertThat(await(store.namespaces(List.of("users"), List.of("memories"), null, 100, 0))).containsExactly(ALICE, BOB);
        assertThat(await(store.namespaces(List.of(), List.of(), 2, 100, 0)))
                .containsExactly(List.of("docs"), List.of("users", "alice"), List.of("users", "bob"));
        assertThat(await(store.namespaces(List.of("users"), List.of(), null, 1, 1))).containsExactly(BOB);
    }

    /** The documented limits (docs/api.md, "The long-term store"). */
    static final int MAX_KEY = 256;
    static final int MAX_LABEL = 256;
    static final int MAX_LABELS = 16;
    static final int MAX_NAMESPACE = 512;

    @ParameterizedTest
    @MethodSource("io.conduit.store.Stores#all")
    void keysAndNamespacesAreBoundedAndTheirTextStorable(Function<Clock, Store> stores) {
        Store store = stores.apply(new ManualClock(T0));
        List<String> ns = List.of("bounds");
        List<List<String>> badNamespaces = List.of(List.of("bounds", "l".repeat(MAX_LABEL + 1)),
                java.util.Collections.nCopies(MAX_LABELS + 1, "n"),
                java.util.Collections.nCopies(3, "l".repeat(MAX_LABEL)), // each label fits; together they are too long
                List.of("bounds", "a\u0000b"), List.of("bounds", "a\ud800b"));
        List<String> badKeys = List.of("k".repeat(MAX_KEY + 1), "k".repeat(3000), "a\u0000b", "a\udc00b");
        List<Map<String, Object>> badValues = List.of(Map.of("v", "a\u0000b"), Map.of("v\u0000", 1), Map.of("v", List.of("\ud800")));
        for (List<String> bad : badNamespaces) {
            refused(() -> store.put(bad, "k", Map.of(), null));
            refused(() -> store.get(bad, "k", false));
            refused(() -> store.delete(bad, "k"));
        }
        for (String bad : badKeys) {
            refused(() -> store.put(ns, bad, Map.of(), null));
            refused(() -> store.get(ns, bad, false));
            refused(() -> store.delete(ns, bad));
        }
        for (Map<String, Object> bad : badValues) {
            refused(() -> store.put(ns, "k", bad, null));
        }
        refused(() -> store.search(new StoreSearch(List.of("a\u0000"), null, null, 10, 0, false)));
        assertThat(await(store.search(new StoreSearch(List.of(), null, null, 100, 0, false)))).isEmpty();
        assertThat(await(store.namespaces(List.of(), List.of(), null, 100, 0))).isEmpty();

        // at the limits, in characters that take three bytes in UTF-8 (PostgreSQL's index on namespace and key has a
        // size limit of its own): stored, and read back exactly, with text that only looks odd
        java.util.Random random = new java.util.Random(17);
        String key = cjk(random, MAX_KEY);
        List<String> deepest = new java.util.ArrayList<>();
        for (int i = 0; i < MAX_LABELS; i++) {
            deepest.add(cjk(random, (MAX_NAMESPACE - (MAX_LABELS - 1)) / MAX_LABELS));
        }
        List<String> longest = List.of(cjk(random, MAX_LABEL), cjk(random, MAX_NAMESPACE - MAX_LABEL - 1));
        Map<String, Object> odd = Map.of("text", "tab\t bell\u0007 smile \ud83d\ude00 \ufffd", "k\u0001", 1);
        for (List<String> namespace : List.of(deepest, longest)) {
            await(store.put(namespace, key, odd, null));
            StoreItem got = await(store.get(namespace, key, false)).orElseThrow();
            assertThat(got.namespace()).isEqualTo(namespace);
            assertThat(got.key()).isEqualTo(key);
            assertThat(got.value()).isEqualTo(odd);
        }
    }

    /** Refused, as a failed Uni or thrown at once. */
    private static void refused(java.util.function.Supplier<Uni<?>> call) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> await(call.get())).isInstanceOf(IllegalArgumentException.class);
    }

    /** {@code n} random CJK ideographs (three bytes each in UTF-8, and no compression shrinks them). */
    private static String cjk(java.util.Random random, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            b.append((char) (0x4e00 + random.nextInt(0x9fff - 0x4e00)));
        }
        return b.toString();
    }
}
