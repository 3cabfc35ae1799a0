package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The admin API of API keys: an admin creates a key (shown once), lists keys (never a key), revokes one. */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class ApiKeysAdminTest {

    @Test
    void anAdminCreatesListsAndRevokesKeys() {
        String owner = "dana-" + UUID.randomUUID();
        Map<String, Object> created = given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).contentType("application/json")
                .body(Map.of("owner", owner, "name", "dana's laptop")).post("/admin/api-keys").then().statusCode(200).extract().path("$");
        String key = (String) created.get("key");
        String id = (String) created.get("key_id");
        assertThat(key).startsWith("cdt_").hasSizeGreaterThan(40);
        assertThat(created).containsEntry("owner", owner).containsEntry("admin", false);

        given().header("x-api-key", key).contentType("application/json").body("{}").post("/threads/search").then().statusCode(200);
        // a key is no admin unless made one
        AccessGuardTest.assertForbidden(given().header("x-api-key", key).get("/admin/api-keys"));

        List<Map<String, Object>> listed = given().header("Authorization", "Bearer " + ApiKeyAuth.ADMIN_KEY).get("/admin/api-keys")
                .then().statusCode(200).extract().path("$");
        Map<String, Object> mine = listed.stream().filter(k -> id.equals(k.get("key_id"))).findFirst().orElseThrow();
        assertThat(mine).containsEntry("owner", owner).doesNotContainKey("key").containsEntry("revoked_at", null);
        assertThat(listed.toString()).doesNotContain(key);

        given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).delete("/admin/api-keys/{id}", id).then().statusCode(204);
        AccessGuardTest.assertUnauthenticated(given().header("x-api-key", key).contentType("application/json").body("{}").post("/threads/search"));
        given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).delete("/admin/api-keys/{id}", id).then().statusCode(404);
    }

    @Test
    void aKeyNamesAnOwner() {
        given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).contentType("application/json").body(Map.of("name", "nobody's"))
                .post("/admin/api-keys").then().statusCode(422).body("code", org.hamcrest.Matchers.equalTo("invalid_input"));
    }

    @Test
    void anAdminKeySeesEveryonesThreads() {
        String admin = ApiKeyAuth.createKey("erin-" + UUID.randomUUID(), true);
        String[] t = AccessGuardTest.ownersThread();
        given().header("x-api-key", admin).get("/admin/api-keys").then().statusCode(200);
        given().header("x-api-key", admin).get("/threads/{t}", t[0]).then().statusCode(200);
    }
}
