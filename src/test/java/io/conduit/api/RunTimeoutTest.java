package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A run that outlives {@code conduit.runs.timeout} is stopped by its timer (a Vert.x timer, cancelled when a run
 * ends in time): its stream ends with a {@code TimeoutError} and the run's status is {@code timeout}.
 */
@QuarkusTest
@TestProfile(RunTimeoutTest.ShortTimeoutSlowModel.class)
class RunTimeoutTest {

    public static class ShortTimeoutSlowModel implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.runs.timeout", "1s", "conduit.simulator.time-to-first-token", "20s");
        }
    }

    @Test
    void aRunPastTheTimeoutStopsWithStatusTimeout() {
        String thread = UUID.randomUUID().toString();
        given().contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "input", Map.of("messages", new Object[] {Map.of("role", "user", "content", "hello")})))
                .post("/threads/" + thread + "/runs/wait")
                .then().statusCode(200)
                .body("__error__.error", equalTo("TimeoutError"))
                .body("__error__.message", startsWith("the run took longer than 1 s"));
        given().get("/threads/" + thread + "/runs").then().statusCode(200).body("[0].status", equalTo("timeout"));
    }
}
