package io.conduit.llm.simulator;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Switched off (the default outside dev and test), the simulator answers nothing but 404. */
@QuarkusTest
@TestProfile(SimulatorDisabledTest.Off.class)
class SimulatorDisabledTest {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // a script that does not exist: switched off, the simulator must not even read it
            return Map.of("conduit.simulator.enabled", "false", "conduit.simulator.script", "/no/such/script.json");
        }
    }

    @Test
    void bothEndpointsAnswer404() {
        given().contentType("application/json").body("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .when().post("/simulator/v1/chat/completions")
                .then().statusCode(404).contentType("application/json")
                .body("error.code", equalTo("simulator_disabled"))
                .body("error.type", equalTo("invalid_request_error"));
        given().when().get("/simulator/v1/models").then().statusCode(404).body("error.code", equalTo("simulator_disabled"));
    }
}
