package io.conduit.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.UserMemory;
import io.conduit.persistence.PostgresUserMemory;
import io.conduit.persistence.TestDatabase;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Both user-memory stores behave alike. */
class UserMemoryContractTest {

    static Stream<Named<Supplier<UserMemory>>> stores() {
        return Stream.of(Named.of("memory", InMemoryUserMemory::new), Named.of("postgres", () -> new PostgresUserMemory(TestDatabase.pool())));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void putGetAllAndOverwriteKeepUsersApart(Supplier<UserMemory> stores) {
        UserMemory m = stores.get();
        String ada = "ada-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();
        assertThat(m.all(ada).await().atMost(Duration.ofSeconds(10))).isEmpty();
        m.put(ada, "city", "Lyon").await().atMost(Duration.ofSeconds(10));
        m.put(ada, "lang", "fr").await().atMost(Duration.ofSeconds(10));
        m.put(ada, "city", "Paris").await().atMost(Duration.ofSeconds(10));
        m.put(bob, "city", "Oslo").await().atMost(Duration.ofSeconds(10));
        assertThat(m.get(ada, "city").await().atMost(Duration.ofSeconds(10))).contains("Paris");
        assertThat(m.get(ada, "missing").await().atMost(Duration.ofSeconds(10))).isEmpty();
        assertThat(m.all(ada).await().atMost(Duration.ofSeconds(10))).isEqualTo(Map.of("city", "Paris", "lang", "fr"));
        assertThat(m.all(bob).await().atMost(Duration.ofSeconds(10))).isEqualTo(Map.of("city", "Oslo"));
    }
}
