package io.conduit.auth;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** API keys in memory: for dev mode and tests; gone at restart. */
public final class InMemoryApiKeyStore implements ApiKeyStore {

    private final Map<String, ApiKey> byId = new ConcurrentHashMap<>();

    @Override
    public synchronized Uni<ApiKey> create(ApiKey key) {
        if (byId.containsKey(key.keyId()) || byId.values().stream().anyMatch(k -> k.hash().equals(key.hash()))) {
            return Uni.createFrom().failure(new IllegalArgumentException("API key " + key.keyId() + " exists"));
        }
        byId.put(key.keyId(), key);
        return Uni.createFrom().item(key);
    }

    @Override
    public Uni<Optional<ApiKey>> byHash(String hash) {
        return Uni.createFrom().item(byId.values().stream().filter(k -> k.hash().equals(hash) && k.revokedAt() == null).findFirst());
    }

    @Override
    public Uni<List<ApiKey>> list() {
        List<ApiKey> all = new ArrayList<>(byId.values());
        all.sort(Comparator.comparing(ApiKey::createdAt).thenComparing(ApiKey::keyId));
        return Uni.createFrom().item(all);
    }

    @Override
    public synchronized Uni<Boolean> revoke(String keyId, Instant at) {
        ApiKey k = byId.get(keyId);
        if (k == null || k.revokedAt() != null) {
            return Uni.createFrom().item(false);
        }
        byId.put(keyId, new ApiKey(k.keyId(), k.hash(), k.owner(), k.admin(), k.name(), k.createdAt(), at));
        return Uni.createFrom().item(true);
    }
}
