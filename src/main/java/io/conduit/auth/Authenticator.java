package io.conduit.auth;

import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The one check every door goes through (io.conduit.http.AccessGuard calls it for each request and WebSocket
 * upgrade): turns the caller's credential into a {@link Principal}, or nothing when it has none that is valid.
 */
@ApplicationScoped
public class Authenticator {

    private static final Logger LOG = Logger.getLogger(Authenticator.class);

    /** The principal of the bootstrap admin key, {@code conduit.auth.admin-key}. */
    public static final String BOOTSTRAP_ADMIN = "admin";

    private final AuthMode mode;
    private final ApiKeyStore keys;
    private final KeyCache cache;
    private final Tickets tickets;
    private final JwtVerifier jwt;
    private final String adminKeyHash;

    Authenticator(AuthConfig config, ApiKeyStore keys, JwtVerifier jwt) {
        this.mode = resolve(config.mode(), LaunchMode.current());
        this.keys = keys;
        this.jwt = jwt;
        this.cache = new KeyCache(config.keyCacheTtl(), Clock.systemUTC());
        this.tickets = new Tickets(config.ticketTtl(), Clock.systemUTC());
        this.adminKeyHash = config.adminKey().map(String::strip).filter(k -> !k.isEmpty()).map(ApiKeys::hash).orElse(null);
    }

    /**
     * The mode in force: the configured one; unset, {@code none} in dev mode and tests, and in prod a refusal to start
     * that says what to set (an operator who forgot must not serve everything to everyone).
     */
    static AuthMode resolve(Optional<AuthMode> configured, LaunchMode launch) {
        if (configured.isPresent()) {
            return configured.get();
        }
        if (launch == LaunchMode.NORMAL) {
            throw new IllegalStateException("Authentication: conduit.auth.mode is not set. Set CONDUIT_AUTH_MODE=api-key (with "
                    + "CONDUIT_AUTH_ADMIN_KEY to create the first keys) or jwt (with mp.jwt.verify.publickey.location), "
                    + "or CONDUIT_AUTH_MODE=none to serve everyone without credentials (docs/auth.md)");
        }
        return AuthMode.NONE;
    }

    void announce(@Observes StartupEvent event) {
        switch (mode) {
            case NONE -> {
                if (LaunchMode.current() == LaunchMode.NORMAL) {
                    LOG.warn("AUTHENTICATION IS OFF (conduit.auth.mode=none): anyone who can reach this service can read, "
                            + "change and delete every thread, and run every assistant on its model key");
                } else {
                    LOG.info("Authentication: none (dev and test default; conduit.auth.mode)");
                }
            }
            case API_KEY -> LOG.infof("Authentication: API keys (x-api-key or Authorization: Bearer)%s",
                    adminKeyHash == null ? "; no bootstrap admin key (conduit.auth.admin-key)" : "; bootstrap admin key set");
            case JWT -> {
                jwt.check();
                LOG.info("Authentication: JWT bearer tokens");
            }
        }
    }

    public AuthMode mode() {
        return mode;
    }

    public Tickets tickets() {
        return tickets;
    }

    /**
     * The caller named by its credential: an API key ({@code x-api-key}, or a bearer token in api-key mode), a JWT
     * (jwt mode), or a WebSocket ticket. Empty when none is valid; with mode none, always the anonymous principal.
     */
    public Uni<Optional<Principal>> authenticate(String apiKey, String bearer, String ticket) {
        if (mode == AuthMode.NONE) {
            return Uni.createFrom().item(Optional.of(Principal.ANONYMOUS));
        }
        if (ticket != null) {
            return Uni.createFrom().item(tickets.redeem(ticket));
        }
        if (mode == AuthMode.JWT) {
            return Uni.createFrom().item(bearer == null ? Optional.empty() : jwt.verify(bearer));
        }
        String key = apiKey != null ? apiKey : bearer;
        if (key == null || key.isBlank()) {
            return Uni.createFrom().item(Optional.empty());
        }
        String hash = ApiKeys.hash(key.strip());
        if (hash.equals(adminKeyHash)) {
            return Uni.createFrom().item(Optional.of(Principal.user(BOOTSTRAP_ADMIN, true)));
        }
        Optional<ApiKey> cached = cache.get(hash);
        if (cached.isPresent()) {
            return Uni.createFrom().item(cached.map(ApiKey::principal));
        }
        return keys.byHash(hash).invoke(k -> k.ifPresent(cache::put)).map(k -> k.map(ApiKey::principal));
    }

    /** A key revoked through this replica stops at once (other replicas: within {@code key-cache-ttl}). */
    public void forget(String keyId) {
        cache.forget(keyId);
    }
}
