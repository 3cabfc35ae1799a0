package io.conduit.runs.submission;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.http.ApiKeyAuth;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A principal's runs in flight and its model tokens per day, over real HTTP with API keys, on Postgres: past either,
 * its next run is refused with 429, {@code Retry-After} and the limit's code, before anything is written, while
 * another principal's runs still start. Held runs are delayed an hour ({@code after_seconds}), so they stay pending for
 * as long as the test needs, and are cancelled at the end.
 */
@QuarkusTest
@TestProfile(PrincipalRunLimitsTest.Small.class)
class PrincipalRunLimitsTest {

    public static class Small extends ApiKeyAuth {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> m = new HashMap<>(super.getConfigOverrides());
            m.put("conduit.limits.per-principal.max-concurrent-runs", "2");
            // one model call of any run uses more: a principal's first run passes, its next is refused
            m.put("conduit.limits.per-principal.tokens-per-day", "1");
            m.put("conduit.limits.retry-after", "7s");
            return m;
        }
    }

    private static String newKey(String name, boolean admin) {
        return ApiKeyAuth.createKey(name + "-" + UUID.randomUUID().toString().substring(0, 8), admin);
    }

    private static Map<String, Object> run(boolean held) {
        Map<String, Object> body = new HashMap<>(Map.of("assistant_id", "agent", "if_not_exists", "create",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "hi")))));
        if (held) {
            body.put("after_seconds", 3600);
        }
        return body;
    }

    private static Response post(String key, String path, Object body) {
        return given().header("x-api-key", key).contentType("application/json").body(body).post(path);
    }

    /** Starts a held run on a new thread: {thread, run}. */
    private static String[] held(String key) {
        String thread = "limits-" + UUID.randomUUID();
        String run = post(key, "/threads/" + thread + "/runs", run(true)).then().statusCode(200).extract().path("run_id");
        return new String[]{thread, run};
    }

    private static void cancel(String key, String[] run) {
        given().header("x-api-key", key).post("/threads/{t}/runs/{r}/cancel", run[0], run[1]).then().statusCode(org.hamcrest.Matchers.lessThan(300));
    }

    @Test
    void aPrincipalStartsAtMostItsLimitOfRunsAtOnce() {
        String a = newKey("runs-a", false);
        String b = newKey("runs-b", false);
        List<String[]> heldByA = new ArrayList<>(List.of(held(a), held(a)));

        String refusedThread = "limits-" + UUID.randomUUID();
        Response refused = post(a, "/threads/" + refusedThread + "/runs", run(true));
        refused.then().statusCode(429).contentType("application/json");
        assertThat(refused.header("Retry-After")).isEqualTo("7");
        assertThat(refused.jsonPath().getString("code")).isEqualTo("principal_run_limit");
        assertThat(refused.jsonPath().getString("detail")).contains("max-concurrent-runs");
        // refused before anything was written: the thread it would have created does not exist
        given().header("x-api-key", a).get("/threads/{t}", refusedThread).then().statusCode(404);
        // a stateless run counts alike
        assertThat(post(a, "/runs", run(true)).statusCode()).isEqualTo(429);

        String[] byB = held(b); // another principal's runs are its own
        String admin = newKey("runs-admin", true);
        List<String[]> byAdmin = List.of(held(admin), held(admin), held(admin)); // admins are exempt

        cancel(a, heldByA.remove(0)); // one of A's ends: room for one more
        heldByA.add(held(a));
        assertThat(post(a, "/threads/limits-" + UUID.randomUUID() + "/runs", run(true)).statusCode()).isEqualTo(429);

        heldByA.forEach(r -> cancel(a, r));
        cancel(b, byB);
        byAdmin.forEach(r -> cancel(admin, r));
    }

    @Test
    void aPrincipalPastItsDailyTokensStartsNoRunUntilTheNextDay() {
        String t = newKey("tokens-t", false);
        String u = newKey("tokens-u", false);
        String thread = "tokens-" + UUID.randomUUID();
        post(t, "/threads/" + thread + "/runs/wait", run(false)).then().statusCode(200);

        Response refused = post(t, "/threads/" + thread + "/runs", run(false));
        refused.then().statusCode(429).contentType("application/json");
        assertThat(refused.jsonPath().getString("code")).isEqualTo("token_budget_exhausted");
        assertThat(refused.jsonPath().getString("detail")).contains("tokens-per-day");
        // until the next UTC day begins
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 86_400L);
        assertThat(given().header("x-api-key", t).get("/threads/{t}/runs", thread).then().statusCode(200).extract().jsonPath()
                .getList("run_id")).hasSize(1);

        cancel(u, held(u)); // another principal still starts runs
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("conduit_limit_refusals_total\\{limit=\"tokens_per_day\"[^}]*} [1-9]");
        assertThat(metrics).containsPattern("conduit_limit_refusals_total\\{limit=\"concurrent_runs\"[^}]*} [0-9]");
    }
}
