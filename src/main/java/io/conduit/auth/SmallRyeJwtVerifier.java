package io.conduit.auth;

import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.util.KeyUtils;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Optional;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * JWT bearer tokens (jwt mode) verified with SmallRye JWT against the configured public key: signature, expiry and,
 * when configured, issuer. The subject ({@code sub}) is the principal; the admin group in {@code groups} makes it an
 * admin. The key is read once, at start-up, so no request waits on a file.
 */
@ApplicationScoped
class SmallRyeJwtVerifier implements JwtVerifier {

    private final AuthConfig.Jwt config;
    private volatile DefaultJWTParser parser;

    SmallRyeJwtVerifier(AuthConfig config) {
        this.config = config.jwt();
    }

    @Override
    public void check() {
        String pem = config.publicKey().filter(k -> !k.isBlank()).orElseGet(() -> config.publicKeyLocation().map(SmallRyeJwtVerifier::read)
                .orElseThrow(() -> new IllegalStateException("conduit.auth.mode=jwt needs the token issuer's public key: set "
                        + "conduit.auth.jwt.public-key-location (a PEM file) or conduit.auth.jwt.public-key")));
        PublicKey key;
        try {
            key = KeyUtils.decodePublicKey(pem.strip());
        } catch (Exception e) {
            throw new IllegalStateException("conduit.auth.jwt: the public key is not a PEM or JWK public key: " + e.getMessage(), e);
        }
        parser = new DefaultJWTParser(new JWTAuthContextInfo(key, config.issuer().orElse(null)));
    }

    @Override
    public Optional<Principal> verify(String token) {
        DefaultJWTParser p = parser;
        if (p == null) {
            return Optional.empty();
        }
        try {
            JsonWebToken jwt = p.parse(token);
            String subject = jwt.getSubject();
            if (subject == null || subject.isBlank()) {
                return Optional.empty();
            }
            return Optional.of(Principal.user(subject, jwt.getGroups() != null && jwt.getGroups().contains(config.adminGroup())));
        } catch (ParseException e) {
            return Optional.empty();
        }
    }

    private static String read(String location) {
        try {
            return Files.readString(Path.of(location));
        } catch (IOException e) {
            throw new UncheckedIOException("conduit.auth.jwt.public-key-location: cannot read " + location, e);
        }
    }
}
