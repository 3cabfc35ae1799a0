package io.conduit.auth;

import java.util.Optional;

/** Verifies a JWT bearer token (jwt mode): its signature, issuer and time; the principal it names. */
public interface JwtVerifier {

    /** The token's principal; empty when it is not valid. */
    Optional<Principal> verify(String token);

    /** Fails at start-up when jwt mode is chosen but no key to verify with is configured. */
    void check();
}
