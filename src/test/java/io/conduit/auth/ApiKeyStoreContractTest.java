package io.conduit.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.conduit.persistence.PostgresApiKeyStore;
import io.conduit.persistence.TestDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The behaviour every {@link ApiKeyStore} shares: in memory and in Postgres (a schema of its own, emptied per test). */
class ApiKeyStoreContractTest {

    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    static Stream<Named<Supplier<ApiKeyStore>>> stores() {
        return Stream.of(Named.of("memory", InMemoryApiKeyStore::new), Named.of("postgres", () -> {
            Pool pool = TestDatabase.schemaPool("api_keys_contract");
            pool.query("TRUNCATE conduit_api_keys").execute().await().atMost(Duration.ofSeconds(10));
            return new PostgresApiKeyStore(pool);
        }));
    }

    private static ApiKey key(String owner, boolean admin, Instant at) {
        return new ApiKey(UUID.randomUUID().toString(), ApiKeys.hash(ApiKeys.newKey()), owner, admin, owner + "'s", at, null);
    }

    private static <T> T await(Uni<T> u) {
        return u.await().atMost(Duration.ofSeconds(10));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aKeyIsFoundByItsHashWithEveryField(Supplier<ApiKeyStore> stores) {
        ApiKeyStore store = stores.get();
        ApiKey k = key("ada", true, T0);
        assertThat(await(store.create(k))).isEqualTo(k);
        assertThat(await(store.byHash(k.hash()))).contains(k);
        assertThat(await(store.byHash(ApiKeys.hash("another")))).isEmpty();
        assertThat(k.principal()).isEqualTo(Principal.user("ada", true));
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aKeyWithoutANameIsKept(Supplier<ApiKeyStore> stores) {
        ApiKeyStore store = stores.get();
        ApiKey k = new ApiKey("k-" + UUID.randomUUID(), ApiKeys.hash(ApiKeys.newKey()), "bo", false, null, T0, null);
        await(store.create(k));
        assertThat(await(store.byHash(k.hash()))).contains(k);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void anIdOrAHashIsUsedOnce(Supplier<ApiKeyStore> stores) {
        ApiKeyStore store = stores.get();
        ApiKey k = await(store.create(key("ada", false, T0)));
        ApiKey sameId = new ApiKey(k.keyId(), ApiKeys.hash("x"), "bo", false, null, T0, null);
        ApiKey sameHash = new ApiKey("other-" + UUID.randomUUID(), k.hash(), "bo", false, null, T0, null);
        assertThatThrownBy(() -> await(store.create(sameId))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> await(store.create(sameHash))).isInstanceOf(IllegalArgumentException.class);
        assertThat(await(store.list())).containsExactly(k);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aRevokedKeyIsListedButNotFound(Supplier<ApiKeyStore> stores) {
        ApiKeyStore store = stores.get();
        ApiKey first = await(store.create(key("ada", false, T0)));
        ApiKey second = await(store.create(key("bo", false, T0.plusSeconds(1))));
        assertThat(await(store.revoke(first.keyId(), T0.plusSeconds(2)))).isTrue();
        assertThat(await(store.revoke(first.keyId(), T0.plusSeconds(3)))).as("once").isFalse();
        assertThat(await(store.revoke("no-such-key", T0))).isFalse();
        assertThat(await(store.byHash(first.hash()))).isEmpty();
        assertThat(await(store.byHash(second.hash()))).contains(second);
        assertThat(await(store.list())).extracting(ApiKey::keyId, ApiKey::revokedAt)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(first.keyId(), T0.plusSeconds(2)),
                        org.assertj.core.groups.Tuple.tuple(second.keyId(), null));
    }
}
