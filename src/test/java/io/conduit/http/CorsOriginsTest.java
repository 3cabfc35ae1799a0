package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsStringIgnoringCase;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * CORS opened to one front end's origin, as docs/operations say (a LangGraph agent-chat-ui on another host): that origin
 * may call the API with the SDK's headers, any other is refused.
 */
@QuarkusTest
@TestProfile(CorsOriginsTest.OneOrigin.class)
class CorsOriginsTest {

    static final String UI = "https://chat.example.edu";

    public static class OneOrigin implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.cors.enabled", "true", "quarkus.http.cors.origins", UI);
        }
    }

    @Test
    void theListedOriginMayCallWithTheSdksHeaders() {
        given().header("Origin", UI).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,x-api-key")
                .when().options("/threads/search")
                .then().statusCode(200).header("Access-Control-Allow-Origin", equalTo(UI))
                .header("Access-Control-Allow-Headers", containsStringIgnoringCase("x-api-key"));
        given().header("Origin", UI).contentType("application/json").body("{}")
                .when().post("/threads/search")
                .then().statusCode(200).header("Access-Control-Allow-Origin", equalTo(UI));
    }

    @Test
    void anyOtherOriginIsRefused() {
        given().header("Origin", "https://elsewhere.example").header("Access-Control-Request-Method", "POST")
                .when().options("/threads/search")
                .then().header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://elsewhere.example").contentType("application/json").body("{}")
                .when().post("/threads/search")
                .then().statusCode(403);
    }
}
