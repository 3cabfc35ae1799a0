package io.conduit.store;

import static org.assertj.core.api.Assertions.assertThat;

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
        Stores.Manual clock = new Stores.Manual(T0);
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
        Stores.Manual clock = new Stores.Manual(T0);
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
        Store store = stores.apply(new Stores.Manual(T0));
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
        Stores.Manual clock = new Stores.Manual(T0);
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
        Store store = stores.apply(new Stores.Manual(T0));
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
}
