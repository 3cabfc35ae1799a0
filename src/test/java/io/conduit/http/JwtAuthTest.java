package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.jwt.build.Jwt;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * JWT mode: bearer tokens signed by an identity provider's key (here one the test generates) are verified with its
 * public key; the subject is the principal, the admin group makes an admin. No identity server is needed.
 */
@QuarkusTest
@TestProfile(JwtAuthTest.JwtAuth.class)
class JwtAuthTest {

    static final KeyPair PROVIDER = rsa();
    static final KeyPair STRANGER = rsa();
    static final String ISSUER = "https://id.example.test";

    public static class JwtAuth implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String pem = "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder().encodeToString(PROVIDER.getPublic().getEncoded())
                    + "\n-----END PUBLIC KEY-----";
            return Map.of("conduit.auth.mode", "jwt", "conduit.auth.jwt.public-key", pem, "conduit.auth.jwt.issuer", ISSUER);
        }
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
            g.initialize(2048);
            return g.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String token(String subject, Set<String> groups, KeyPair signer, String issuer, Instant expires) {
        return Jwt.issuer(issuer).subject(subject).groups(groups).expiresAt(expires).sign(signer.getPrivate());
    }

    private static String token(String subject, Set<String> groups) {
        return token(subject, groups, PROVIDER, ISSUER, Instant.now().plusSeconds(600));
    }

    @Test
    void theTokensSubjectOwnsWhatItCreatesAndTheAdminGroupSeesAll() {
        String ada = token("ada-" + UUID.randomUUID(), Set.of());
        String bo = token("bo-" + UUID.randomUUID(), Set.of("staff"));
        String root = token("root-" + UUID.randomUUID(), Set.of("admin"));
        String thread = "jwt-" + UUID.randomUUID();
        given().auth().oauth2(ada).contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        given().auth().oauth2(ada).get("/threads/{t}", thread).then().statusCode(200);
        AccessGuardTest.assertNotFound(given().auth().oauth2(bo).get("/threads/{t}", thread));
        given().auth().oauth2(root).get("/threads/{t}", thread).then().statusCode(200);
        given().auth().oauth2(root).get("/admin/api-keys").then().statusCode(200);
        AccessGuardTest.assertForbidden(given().auth().oauth2(bo).get("/admin/api-keys"));
    }

    @Test
    void aTokenThatDoesNotVerifyIsNoCredential() {
        String thread = "jwt-" + UUID.randomUUID();
        String[] bad = {
                token("ada", Set.of(), PROVIDER, ISSUER, Instant.now().minusSeconds(600)), // expired
                token("ada", Set.of(), STRANGER, ISSUER, Instant.now().plusSeconds(600)), // another key
                token("ada", Set.of(), PROVIDER, "https://elsewhere.test", Instant.now().plusSeconds(600)), // another issuer
                "not-a-jwt"};
        for (String t : bad) {
            AccessGuardTest.assertUnauthenticated(given().auth().oauth2(t).get("/threads/{t}", thread));
        }
        AccessGuardTest.assertUnauthenticated(given().get("/threads/{t}", thread));
        // an API key is not a credential in jwt mode
        AccessGuardTest.assertUnauthenticated(given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).get("/threads/{t}", thread));
        assertThat(given().get("/q/health/live").statusCode()).isEqualTo(200);
    }
}
