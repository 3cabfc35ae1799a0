package io.conduit.auth;

import java.time.Instant;

/**
 * A stored API key: never the key itself, only its hash ({@link ApiKeys#hash}). {@code owner} is the principal it
 * authenticates; {@code revokedAt} null while it is valid.
 */
public record ApiKey(String keyId, String hash, String owner, boolean admin, String name, Instant createdAt, Instant revokedAt) {

    public Principal principal() {
        return Principal.user(owner, admin);
    }
}
