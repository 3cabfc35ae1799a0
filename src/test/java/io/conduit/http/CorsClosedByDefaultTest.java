package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/**
 * With no CORS settings (prod's default) a page of another origin is given no {@code Access-Control-Allow-*} header,
 * so its browser lets it read nothing; the chat page is served from the service's own origin and needs none.
 */
@QuarkusTest
class CorsClosedByDefaultTest {

    @Test
    void anotherOriginIsAllowedNothing() {
        given().header("Origin", "https://elsewhere.example").header("Access-Control-Request-Method", "POST")
                .when().options("/threads")
                .then().header("Access-Control-Allow-Origin", nullValue());
        given().header("Origin", "https://elsewhere.example").contentType("application/json").body("{}")
                .when().post("/threads/search")
                .then().statusCode(200).header("Access-Control-Allow-Origin", nullValue());
    }
}
