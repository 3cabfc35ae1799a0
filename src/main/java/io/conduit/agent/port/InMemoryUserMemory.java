package io.conduit.agent.port;

import io.smallrye.mutiny.Uni;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** User memory in this JVM: the embedded default (conduit.checkpointer.store=memory), lost when the service stops. */
public final class InMemoryUserMemory implements UserMemory {

    private final Map<String, Map<String, String>> users = new ConcurrentHashMap<>();

    @Override
    public Uni<Map<String, String>> all(String userId) {
        // sorted by key, like the Postgres store: the same memories make the same prompt
        return Uni.createFrom().item(() -> Collections.unmodifiableMap(new TreeMap<>(users.getOrDefault(userId, Map.of()))));
    }

    @Override
    public Uni<Optional<String>> get(String userId, String key) {
        return Uni.createFrom().item(() -> Optional.ofNullable(users.getOrDefault(userId, Map.of()).get(key)));
    }

    @Override
    public Uni<Void> put(String userId, String key, String value) {
        return Uni.createFrom().item(() -> {
            users.computeIfAbsent(userId, k -> new ConcurrentHashMap<>()).put(key, value);
            return null;
        });
    }
}
