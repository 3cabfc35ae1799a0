package io.conduit.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Verified API keys remembered for a short time, by hash, so a busy client costs no database read per request. */
final class KeyCache {

    /** Bounds the memory a flood of distinct (valid) keys could take: past it the cache starts over. */
    private static final int MAX = 10_000;

    private record Entry(ApiKey key, Instant until) {
    }

    private final Map<String, Entry> byHash = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Clock clock;

    KeyCache(Duration ttl, Clock clock) {
        this.ttl = ttl;
        this.clock = clock;
    }

    Optional<ApiKey> get(String hash) {
        Entry e = byHash.get(hash);
        if (e == null || e.until().isBefore(clock.instant())) {
            return Optional.empty();
        }
        return Optional.of(e.key());
    }

    void put(ApiKey key) {
        if (ttl.isZero()) {
            return;
        }
        if (byHash.size() >= MAX) {
            byHash.clear();
        }
        byHash.put(key.hash(), new Entry(key, clock.instant().plus(ttl)));
    }

    void forget(String keyId) {
        byHash.values().removeIf(e -> e.key().keyId().equals(keyId));
    }
}
