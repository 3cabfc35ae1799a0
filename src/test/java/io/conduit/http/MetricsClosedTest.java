package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code conduit.auth.metrics-open=false}: the metrics want a key like any door; the health checks stay open. */
@QuarkusTest
@TestProfile(MetricsClosedTest.Closed.class)
class MetricsClosedTest {

    public static class Closed extends ApiKeyAuth {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> m = new HashMap<>(super.getConfigOverrides());
            m.put("conduit.auth.metrics-open", "false");
            return m;
        }
    }

    @Test
    void theMetricsWantAKey() {
        AccessGuardTest.assertUnauthenticated(given().get("/q/metrics"));
        assertThat(given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).get("/q/metrics").statusCode()).isNotEqualTo(401);
        given().get("/q/health/ready").then().statusCode(200);
    }
}
