package io.conduit.auth;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where API keys are kept (by hash): in memory, or in Postgres beside the threads. */
public interface ApiKeyStore {

    /** Stores a new key; fails with IllegalArgumentException when its id or hash exists. */
    Uni<ApiKey> create(ApiKey key);

    /** The valid (not revoked) key with this hash. */
    Uni<Optional<ApiKey>> byHash(String hash);

    /** Every key, revoked ones included, oldest first. */
    Uni<List<ApiKey>> list();

    /** Revokes a key; false when there is no such key or it was already revoked. */
    Uni<Boolean> revoke(String keyId, Instant at);
}
