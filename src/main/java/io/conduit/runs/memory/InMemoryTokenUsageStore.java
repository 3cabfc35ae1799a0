package io.conduit.runs.memory;

import io.conduit.runs.TokenUsageStore;
import io.smallrye.mutiny.Uni;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Token usage per principal and day in this JVM: the memory store's, gone with the process like its threads. */
public final class InMemoryTokenUsageStore implements TokenUsageStore {

    private record Key(String principal, LocalDate day) {
    }

    private final Map<Key, Long> used = new ConcurrentHashMap<>();

    @Override
    public Uni<Long> add(String principal, LocalDate day, long tokens) {
        return Uni.createFrom().item(() -> used.merge(new Key(principal, day), tokens, Long::sum));
    }

    @Override
    public Uni<Long> used(String principal, LocalDate day) {
        return Uni.createFrom().item(() -> used.getOrDefault(new Key(principal, day), 0L));
    }

    @Override
    public Uni<Integer> forgetBefore(LocalDate day) {
        return Uni.createFrom().item(() -> {
            int before = used.size();
            used.keySet().removeIf(k -> k.day().isBefore(day));
            return before - used.size();
        });
    }
}
