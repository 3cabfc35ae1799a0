package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

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
    void readinessIsUp() {
        given()
                .when().get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"));
    }
}
