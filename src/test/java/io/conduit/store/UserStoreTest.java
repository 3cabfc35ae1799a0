package io.conduit.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's view of the store never reaches another user's items, however their ids are spelled. */
class UserStoreTest {

    final Store store = new InMemoryStore(new ManualClock(Instant.parse("2026-11-23T12:00:00Z")));

    private static <T> T await(io.smallrye.mutiny.Uni<T> u) {
        return u.await().atMost(Duration.ofSeconds(5));
    }

    @Test
    void oneUsersItemsAreInvisibleToAnother() {
        UserStore alice = new UserStore(store, "alice");
        UserStore bob = new UserStore(store, "bob");
        await(alice.put(List.of("memories"), "hobby", Map.of("text", "hiking"), null));

        assertThat(await(alice.get(List.of("memories"), "hobby"))).map(StoreItem::namespace).contains(List.of("memories"));
        assertThat(await(bob.get(List.of("memories"), "hobby"))).isEmpty();
        assertThat(await(bob.search(List.of(), Map.of(), "hiking", 10))).isEmpty();
        assertThat(await(alice.search(List.of(), Map.of(), "hiking", 10))).extracting(StoreItem::key).containsExactly("hobby");
        assertThat(await(store.get(List.of("users", "alice", "memories"), "hobby", false))).isPresent();
        await(bob.delete(List.of("memories"), "hobby"));
        assertThat(await(alice.get(List.of("memories"), "hobby"))).isPresent();
    }

    @Test
    void idsThatDifferOnlyByDotsOrEscapesStayApart() {
        UserStore dotted = new UserStore(store, "a.b");
        UserStore escaped = new UserStore(store, "a%2Eb");
        UserStore nested = new UserStore(store, "a");
        await(dotted.put(List.of("m"), "k", Map.of("who", "dotted"), null));
        assertThat(await(escaped.get(List.of("m"), "k"))).isEmpty();
        assertThat(await(nested.search(List.of(), Map.of(), null, 10))).isEmpty();
        assertThat(await(dotted.get(List.of("m"), "k"))).map(i -> i.value().get("who")).contains("dotted");
        assertThatThrownBy(() -> new UserStore(store, "")).isInstanceOf(IllegalArgumentException.class);
    }
}
