package io.conduit.http;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.RestAssured;
import java.util.Map;

/**
 * The service with API keys on ({@code conduit.auth.mode=api-key}) and a bootstrap admin key, with which the tests
 * create their principals' keys through the admin API, as an operator would.
 */
public class ApiKeyAuth implements QuarkusTestProfile {

    /** The bootstrap admin key of this profile ({@code conduit.auth.admin-key}). */
    public static final String ADMIN_KEY = "test-bootstrap-admin-key-0123456789abcdef";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("conduit.auth.mode", "api-key", "conduit.auth.admin-key", ADMIN_KEY);
    }

    /** Creates a key through the admin API; the key, shown this once. */
    public static String createKey(String owner, boolean admin) {
        return RestAssured.given().header("x-api-key", ADMIN_KEY).contentType("application/json")
                .body(Map.of("owner", owner, "admin", admin, "name", owner + "'s test key"))
                .when().post("/admin/api-keys").then().statusCode(200).extract().path("key");
    }
}
