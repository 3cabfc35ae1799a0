package io.conduit.auth;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;

/** Until a JWT verifier is configured: no token is valid, and jwt mode refuses to start. */
@DefaultBean
@ApplicationScoped
class NoJwtVerifier implements JwtVerifier {

    @Override
    public Optional<Principal> verify(String token) {
        return Optional.empty();
    }

    @Override
    public void check() {
        throw new IllegalStateException("conduit.auth.mode=jwt needs a verification key: set mp.jwt.verify.publickey.location");
    }
}
