package io.conduit.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Who may call the service: {@code conduit.auth.*} (docs/auth.md). */
@ConfigMapping(prefix = "conduit.auth")
public interface AuthConfig {

    /**
     * {@code none}, {@code api-key} or {@code jwt}. Unset: {@code none} in dev mode and tests; the packaged
     * service (prod) refuses to start until one is chosen, and {@code none} chosen there is logged as a warning.
     */
    Optional<AuthMode> mode();

    /**
     * A bootstrap admin key (api-key mode), so an operator can create the first keys through {@code /admin/api-keys}.
     * Kept only as its hash; its principal is {@code admin}. Use a long random value (e.g. {@code openssl rand -hex 32}).
     */
    Optional<String> adminKey();

    /** Whether {@code /q/metrics} is readable without credentials (a scraper inside the cluster usually has none). */
    @WithDefault("true")
    boolean metricsOpen();

    /** How long a WebSocket ticket ({@code POST /auth/ws-ticket}) may wait to be used; it is good for one upgrade. */
    @WithDefault("30s")
    Duration ticketTtl();

    /**
     * How long a verified API key is remembered by this replica, so a busy client costs no database read per request.
     * A key revoked here stops at once; on other replicas within this time.
     */
    @WithDefault("10s")
    Duration keyCacheTtl();

    /** JWT mode: how bearer tokens are verified. */
    Jwt jwt();

    /** {@code conduit.auth.jwt.*}: tokens signed by the identity provider, verified here with its public key. */
    interface Jwt {

        /** A file holding the provider's public key (PEM, or a JWK set), read once at start-up. */
        Optional<String> publicKeyLocation();

        /** The public key itself (PEM text or JWK), instead of a file, e.g. from a Kubernetes secret. */
        Optional<String> publicKey();

        /** The {@code iss} a token must carry; unset, any issuer signing with the key is accepted. */
        Optional<String> issuer();

        /** The group (in the token's {@code groups} claim) that makes its subject an admin. */
        @WithDefault("admin")
        String adminGroup();
    }
}
