package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ServiceInfoResourceTest {

    @Test
    void rootDescribesTheService() {
        given()
                .when().get("/")
                .then()
                .statusCode(200)
                .body("service", equalTo("conduit"))
                .body("version", equalTo("0.1.0-SNAPSHOT"));
    }

    @Test
    void aBrowserGetsTheChatPageAndItsScripts() {
        given()
                .accept("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
                .when().get("/")
                .then()
                .statusCode(200)
                .contentType(startsWith("text/html"))
                .body(containsString("<title>Conduit chat</title>"), containsString("/chat/js/main.js"));
        given().when().get("/chat/js/main.js").then().statusCode(200).body(containsString("ThreadConnection"));
        given().when().get("/chat/style.css").then().statusCode(200);
    }

    @Test
    void clientsThatAskForJsonOrAnythingGetTheServiceInfo() {
        for (String accept : new String[] {"application/json", "*/*", "application/json, text/html;q=0.5"}) {
            given()
                    .accept(accept)
                    .when().get("/")
                    .then()
                    .statusCode(200)
                    .contentType(startsWith("application/json"))
                    .body("service", equalTo("conduit"));
        }
    }

    @Test
    void readinessIsUp() {
        given()
                .when().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
    }
}
