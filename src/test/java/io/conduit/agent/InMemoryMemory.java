package io.conduit.agent;

import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link UserMemory} in a map, for stage tests. */
final class InMemoryMemory implements UserMemory {

    final Map<String, Map<String, String>> users = new ConcurrentHashMap<>();

    @Override
    public Uni<Map<String, String>> all(String userId) {
        return Uni.createFrom().item(Map.copyOf(users.getOrDefault(userId, Map.of())));
    }

    @Override
    public Uni<Optional<String>> get(String userId, String key) {
        return Uni.createFrom().item(Optional.ofNullable(users.getOrDefault(userId, Map.of()).get(key)));
    }

    @Override
    public Uni<Void> put(String userId, String key, String value) {
        users.computeIfAbsent(userId, k -> new ConcurrentHashMap<>()).put(key, value);
        return Uni.createFrom().voidItem();
    }
}
