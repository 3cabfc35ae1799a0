package io.conduit.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Short-lived, single-use tickets for a browser's WebSocket, which cannot send headers: an authenticated
 * {@code POST /auth/ws-ticket} gets one, and the upgrade request names it ({@code ?ticket=}). Kept in this replica's
 * memory: the upgrade must reach the replica that issued it (docs/auth.md).
 */
public final class Tickets {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** Past this many outstanding tickets, expired ones are swept on the next issue. */
    private static final int SWEEP_AT = 1024;

    private record Issued(Principal principal, Instant expires) {
    }

    private final Map<String, Issued> issued = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Clock clock;

    public Tickets(Duration ttl, Clock clock) {
        this.ttl = ttl;
        this.clock = clock;
    }

    public String issue(Principal principal) {
        Instant now = clock.instant();
        if (issued.size() > SWEEP_AT) {
            issued.values().removeIf(i -> i.expires().isBefore(now));
        }
        byte[] b = new byte[24];
        RANDOM.nextBytes(b);
        String ticket = Base64.getUrlEncoder().withoutPadding().encodeToString(b);
        issued.put(ticket, new Issued(principal, now.plus(ttl)));
        return ticket;
    }

    /** The ticket's principal, once: a ticket redeemed, or past its time, is gone. */
    public Optional<Principal> redeem(String ticket) {
        Issued i = issued.remove(ticket);
        return i == null || i.expires().isBefore(clock.instant()) ? Optional.empty() : Optional.of(i.principal());
    }

    public Duration ttl() {
        return ttl;
    }
}
