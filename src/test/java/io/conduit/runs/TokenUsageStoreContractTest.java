package io.conduit.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.persistence.PostgresTokenUsageStore;
import io.conduit.persistence.TestDatabase;
import io.conduit.runs.memory.InMemoryTokenUsageStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every {@link TokenUsageStore} shares: in memory and in Postgres (a schema of its own, emptied per test). */
class TokenUsageStoreContractTest {

    private static final LocalDate DAY = LocalDate.of(2025, 3, 14);

    static Stream<Named<Supplier<TokenUsageStore>>> stores() {
        return Stream.of(Named.of("memory", InMemoryTokenUsageStore::new), Named.of("postgres", () -> {
            Pool pool = TestDatabase.schemaPool("token_usage_contract");
            pool.query("TRUNCATE conduit_principal_usage").execute().await().atMost(Duration.ofSeconds(10));
            return new PostgresTokenUsageStore(pool);
        }));
    }

    private static <T> T await(Uni<T> u) {
        return u.await().atMost(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void additionsSumPerPrincipalAndDay(Supplier<TokenUsageStore> stores) {
        TokenUsageStore store = stores.get();
        assertThat(await(store.used("ada", DAY))).isZero();
        assertThat(await(store.add("ada", DAY, 120))).isEqualTo(120);
        assertThat(await(store.add("ada", DAY, 30))).isEqualTo(150);
        await(store.add("bo", DAY, 7));
        await(store.add("ada", DAY.plusDays(1), 5));
        assertThat(await(store.used("ada", DAY))).isEqualTo(150);
        assertThat(await(store.used("bo", DAY))).isEqualTo(7);
        assertThat(await(store.used("ada", DAY.plusDays(1)))).isEqualTo(5);
        assertThat(await(store.used("bo", DAY.plusDays(1)))).isZero();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void additionsArrivingTogetherAreAllCounted(Supplier<TokenUsageStore> stores) {
        TokenUsageStore store = stores.get();
        // subscribed all at once, awaited after: several replicas recording one principal's calls
        List<CompletableFuture<Long>> adds = IntStream.range(0, 20)
                .mapToObj(i -> store.add("ada", DAY, 10).subscribeAsCompletionStage()).toList();
        adds.forEach(CompletableFuture::join);
        assertThat(await(store.used("ada", DAY))).isEqualTo(200);
        assertThat(adds.stream().map(CompletableFuture::join)).as("each addition's total is distinct").doesNotHaveDuplicates();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void daysBeforeAGivenOneAreForgotten(Supplier<TokenUsageStore> stores) {
        TokenUsageStore store = stores.get();
        await(store.add("ada", DAY.minusDays(2), 1));
        await(store.add("bo", DAY.minusDays(1), 2));
        await(store.add("ada", DAY, 3));
        assertThat(await(store.forgetBefore(DAY))).isEqualTo(2);
        assertThat(await(store.used("ada", DAY.minusDays(2)))).isZero();
        assertThat(await(store.used("bo", DAY.minusDays(1)))).isZero();
        assertThat(await(store.used("ada", DAY))).isEqualTo(3);
        assertThat(await(store.forgetBefore(DAY))).isZero();
    }
}
