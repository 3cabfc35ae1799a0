package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Requests per minute per principal, over real HTTP with API keys: 3 a minute here, so each test's principals are
 * new and their 4th request is refused while another principal's still pass. The buckets refill one request every
 * 20 s: each test makes its requests well within that.
 */
@QuarkusTest
@TestProfile(RequestRateGuardTest.ThreeAMinute.class)
class RequestRateGuardTest {

    public static class ThreeAMinute extends ApiKeyAuth {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> m = new HashMap<>(super.getConfigOverrides());
            m.put("conduit.limits.per-principal.requests-per-minute", "3");
            return m;
        }
    }

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private static String newKey(String name) {
        return ApiKeyAuth.createKey(name + "-" + UUID.randomUUID().toString().substring(0, 8), false);
    }

    private static Response search(String key) {
        return given().header("x-api-key", key).contentType("application/json").body("{}").post("/threads/search");
    }

    private static void tooMany(Response r) {
        r.then().statusCode(429).contentType("application/json");
        assertThat(Long.parseLong(r.header("Retry-After"))).isBetween(1L, 20L);
        assertThat(r.jsonPath().getString("code")).isEqualTo("too_many_requests");
        assertThat(r.jsonPath().getString("detail")).contains("requests-per-minute");
    }

    @Test
    void theFourthRequestOfAPrincipalIsRefusedWhileAnotherStillPasses() {
        String a = newKey("rate-a");
        String b = newKey("rate-b");
        for (int i = 0; i < 3; i++) {
            search(a).then().statusCode(200);
        }
        tooMany(search(a));
        // every door counts: a stream request too
        tooMany(given().header("x-api-key", a).get("/threads/{t}/stream", UUID.randomUUID().toString()));
        search(b).then().statusCode(200);
        // admins are exempt: the bootstrap key is not counted
        for (int i = 0; i < 5; i++) {
            given().header("x-api-key", ApiKeyAuth.ADMIN_KEY).contentType("application/json").body("{}").post("/threads/search")
                    .then().statusCode(200);
        }
        // what anyone may call is never counted
        given().get("/q/health/live").then().statusCode(200);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("conduit_limit_refusals_total\\{limit=\"requests_per_minute\"[^}]*} [1-9]");
    }

    @Test
    void aWebSocketUpgradeIsARequestAndRefusedPastTheLimit() {
        String a = newKey("rate-ws");
        for (int i = 0; i < 3; i++) {
            search(a).then().statusCode(200);
        }
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> open("/threads/" + UUID.randomUUID() + "/stream/events", new WebSocketFrames(), a))
                .isInstanceOf(CompletionException.class).satisfies(e -> caught[0] = e.getCause());
        assertThat(caught[0]).isInstanceOf(WebSocketHandshakeException.class);
        assertThat(((WebSocketHandshakeException) caught[0]).getResponse().statusCode()).isEqualTo(429);
    }

    @Test
    void framesThatStartRunsOnAnOpenSocketAreCountedToo() throws Exception {
        String a = newKey("rate-frames");
        WebSocketFrames frames = new WebSocketFrames();
        WebSocket ws = open("/threads/rate-" + UUID.randomUUID() + "/stream/events", frames, a); // request 1
        // reading the state starts no run: not counted
        ws.sendText("{\"id\":0,\"method\":\"state.get\",\"params\":{}}", true).join();
        assertThat(frames.next().path("type").asText()).isEqualTo("success");
        for (int i = 1; i <= 3; i++) {
            ws.sendText("{\"id\":" + i + ",\"method\":\"run.start\",\"params\":{\"assistant_id\":\"agent\",\"input\":{\"messages\":"
                    + "[{\"role\":\"user\",\"content\":\"hi\"}]}}}", true).join();
        }
        Map<Integer, JsonNode> answers = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            JsonNode answer = frames.next();
            answers.put(answer.path("id").asInt(), answer);
        }
        JsonNode first = answers.get(1);
        JsonNode second = answers.get(2);
        JsonNode third = answers.get(3);
        assertThat(first.path("type").asText()).as(first.toString()).isEqualTo("success");
        assertThat(second.path("type").asText()).as(second.toString()).isEqualTo("success");
        assertThat(third.path("type").asText()).isEqualTo("error");
        assertThat(third.path("message").asText()).contains("too_many_requests");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
    }

    private WebSocket open(String path, WebSocketFrames frames, String key) {
        return HttpClient.newHttpClient().newWebSocketBuilder().header("x-api-key", key)
                .buildAsync(URI.create("ws://localhost:" + port + path), frames).join();
    }
}
