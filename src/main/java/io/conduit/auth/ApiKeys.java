package io.conduit.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Making and hashing API keys. A key is 32 random bytes (256 bits) from SecureRandom, so a plain SHA-256 is enough to
 * store it: a slow password hash (bcrypt, argon2) defends guessable secrets against brute force, and nobody can
 * enumerate 2^256 keys; a fast hash keeps the check cheap on every request and lets the key be found by its hash.
 */
public final class ApiKeys {

    /** Marks Conduit's keys, so a leaked one is recognisable (secret scanners, logs). */
    public static final String PREFIX = "cdt_";

    private static final SecureRandom RANDOM = new SecureRandom();

    private ApiKeys() {
    }

    public static String newKey() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    public static String hash(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }
}
