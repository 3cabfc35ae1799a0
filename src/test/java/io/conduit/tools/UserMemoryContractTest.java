package io.conduit.tools;

import io.conduit.agent.port.InMemoryUserMemory;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.port.UserMemory;
import io.conduit.persistence.PostgresUserMemory;
import io.conduit.persistence.TestDatabase;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Both user-memory stores keep the same promises (Postgres: the local test database, migrated by Flyway). */
class UserMemoryContractTest {

    static final Duration WAIT = Duration.ofSeconds(10);

    static Stream<Named<Supplier<UserMemory>>> stores() {
        return Stream.of(Named.of("memory", InMemoryUserMemory::new), Named.of("postgres", () -> new PostgresUserMemory(TestDatabase.pool())));
    }

    static <T> T await(Uni<T> uni) {
        return uni.await().atMost(WAIT);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aNewUserRemembersNothing(Supplier<UserMemory> store) {
        UserMemory m = store.get();
        String ada = "ada-" + UUID.randomUUID();
        assertThat(await(m.all(ada))).isEmpty();
        assertThat(await(m.get(ada, "city"))).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void putThenGetAndAllSortedByKey(Supplier<UserMemory> store) {
        UserMemory m = store.get();
        String ada = "ada-" + UUID.randomUUID();
        await(m.put(ada, "lang", "fr"));
        await(m.put(ada, "city", "Lyon"));
        assertThat(await(m.get(ada, "city"))).contains("Lyon");
        assertThat(await(m.get(ada, "missing"))).isEmpty();
        assertThat(await(m.all(ada))).containsExactly(Map.entry("city", "Lyon"), Map.entry("lang", "fr"));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void puttingAKeyAgainReplacesItsValue(Supplier<UserMemory> store) {
        UserMemory m = store.get();
        String ada = "ada-" + UUID.randomUUID();
        await(m.put(ada, "city", "Lyon"));
        await(m.put(ada, "city", "Paris"));
        assertThat(await(m.get(ada, "city"))).contains("Paris");
        assertThat(await(m.all(ada))).isEqualTo(Map.of("city", "Paris"));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void usersAreKeptApart(Supplier<UserMemory> store) {
        UserMemory m = store.get();
        String ada = "ada-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();
        await(m.put(ada, "city", "Lyon"));
        await(m.put(bob, "city", "Oslo"));
        assertThat(await(m.all(ada))).isEqualTo(Map.of("city", "Lyon"));
        assertThat(await(m.all(bob))).isEqualTo(Map.of("city", "Oslo"));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void valuesComeBackExactly(Supplier<UserMemory> store) {
        UserMemory m = store.get();
        String ada = "ada-" + UUID.randomUUID();
        String value = "line one\nline 'two' \"quoted\" — ünïcödé ✓ 🎓; DROP TABLE x; " + "x".repeat(2000);
        await(m.put(ada, "notes", value));
        await(m.put(ada, "empty", ""));
        assertThat(await(m.get(ada, "notes"))).contains(value);
        assertThat(await(m.get(ada, "empty"))).contains("");
    }
}
