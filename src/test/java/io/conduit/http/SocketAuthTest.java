package io.conduit.http;

import static io.conduit.http.AccessGuardTest.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.conduit.http.AccessGuardTest.Caller;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket upgrades go through the same check as every request: a key in a header (a server-side client), or a
 * single-use ticket from {@code POST /auth/ws-ticket} (a browser, which cannot send headers on a WebSocket). Without
 * either the upgrade is refused with 401; on another principal's thread with 404.
 */
@QuarkusTest
@TestProfile(ApiKeyAuth.class)
class SocketAuthTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private WebSocket open(String path, WebSocketFrames frames, Map<String, String> headers, String... subprotocol) {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        headers.forEach(b::header);
        if (subprotocol.length > 0) {
            b.subprotocols(subprotocol[0]);
        }
        return b.buildAsync(URI.create("ws://localhost:" + port + path), frames).join();
    }

    private int refusal(String path, Map<String, String> headers, String... subprotocol) {
        Throwable[] caught = new Throwable[1];
        assertThatThrownBy(() -> open(path, new WebSocketFrames(), headers, subprotocol)).isInstanceOf(CompletionException.class)
                .satisfies(e -> caught[0] = e.getCause());
        assertThat(caught[0]).isInstanceOf(WebSocketHandshakeException.class);
        return ((WebSocketHandshakeException) caught[0]).getResponse().statusCode();
    }

    private static String ticket(Caller caller) {
        return as(caller).post("/auth/ws-ticket").then().statusCode(200).extract().path("ticket");
    }

    private static JsonNode stateGet(WebSocket ws, WebSocketFrames frames) throws Exception {
        ws.sendText("{\"id\":1,\"method\":\"state.get\",\"params\":{}}", true).join();
        return frames.next();
    }

    @Test
    void theThreadProtocolsSocketWantsAKeyOrATicketOfTheThreadsOwner() throws Exception {
        String thread = AccessGuardTest.ownersThread()[0];
        String path = "/threads/" + thread + "/stream/events";
        assertThat(refusal(path, Map.of())).isEqualTo(401);
        assertThat(refusal(path, Map.of("x-api-key", "cdt_wrong"))).isEqualTo(401);
        assertThat(refusal(path, Map.of("x-api-key", AccessGuardTest.principals().otherKey()))).isEqualTo(404);
        assertThat(refusal(path + "?ticket=" + ticket(Caller.OTHER), Map.of())).isEqualTo(404);

        WebSocketFrames byHeader = new WebSocketFrames();
        WebSocket ws = open(path, byHeader, Map.of("x-api-key", AccessGuardTest.principals().ownerKey()));
        assertThat(stateGet(ws, byHeader).path("type").asText()).isEqualTo("success");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();

        String ticket = ticket(Caller.OWNER);
        WebSocketFrames byTicket = new WebSocketFrames();
        WebSocket browser = open(path + "?ticket=" + ticket, byTicket, Map.of());
        assertThat(stateGet(browser, byTicket).path("type").asText()).isEqualTo("success");
        browser.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        assertThat(refusal(path + "?ticket=" + ticket, Map.of())).as("a ticket is good once").isEqualTo(401);

        WebSocketFrames admin = new WebSocketFrames();
        WebSocket byAdmin = open(path + "?ticket=" + ticket(Caller.ADMIN), admin, Map.of());
        assertThat(stateGet(byAdmin, admin).path("type").asText()).isEqualTo("success");
        byAdmin.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
    }

    @Test
    void aThreadARunOverTheSocketCreatesIsTheCallers() throws Exception {
        String thread = "ws-auth-" + UUID.randomUUID();
        WebSocketFrames frames = new WebSocketFrames();
        WebSocket ws = open("/threads/" + thread + "/stream/events?ticket=" + ticket(Caller.OWNER), frames, Map.of());
        ws.sendText("{\"id\":1,\"method\":\"run.start\",\"params\":{\"assistant_id\":\"agent\",\"input\":{\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"hi\"}]},\"config\":{\"configurable\":{\"user_id\":\"someone-else\"}}}}", true).join();
        JsonNode answer = frames.next();
        assertThat(answer.path("type").asText()).as(answer.toString()).isEqualTo("success");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        String run = answer.path("result").path("run_id").asText();
        assertThat(as(Caller.OWNER).get("/threads/{t}", thread).then().statusCode(200).extract().<String>path("metadata.owner"))
                .isEqualTo(AccessGuardTest.principals().owner());
        assertThat(as(Caller.OWNER).get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200)
                .extract().<String>path("kwargs.config.configurable.user_id")).isEqualTo(AccessGuardTest.principals().owner());
        AccessGuardTest.assertNotFound(as(Caller.OTHER).get("/threads/{t}", thread));
    }

    @Test
    void theAgUiSocketWantsAKeyOrATicketAndRunsAsItsPrincipal() throws Exception {
        assertThat(refusal("/ag-ui", Map.of(), "ag-ui")).isEqualTo(401);
        String thread = "agui-auth-" + UUID.randomUUID();
        WebSocketFrames frames = new WebSocketFrames();
        WebSocket ws = open("/ag-ui?ticket=" + ticket(Caller.OWNER), frames, Map.of(), "ag-ui");
        ws.sendText("{\"threadId\":\"" + thread + "\",\"runId\":\"r1\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tools\":[],\"context\":[],\"state\":{},\"forwardedProps\":{}}", true).join();
        String last;
        do {
            last = frames.next().path("type").asText();
        } while (!last.equals("RUN_FINISHED") && !last.equals("RUN_ERROR"));
        assertThat(last).isEqualTo("RUN_FINISHED");
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        assertThat(as(Caller.OWNER).get("/threads/{t}", thread).then().statusCode(200).extract().<String>path("metadata.owner"))
                .isEqualTo(AccessGuardTest.principals().owner());
        AccessGuardTest.assertNotFound(as(Caller.OTHER).get("/threads/{t}", thread));

        // another principal's socket cannot run on it
        WebSocketFrames other = new WebSocketFrames();
        WebSocket theirs = open("/ag-ui", other, Map.of("x-api-key", AccessGuardTest.principals().otherKey()), "ag-ui");
        theirs.sendText("{\"threadId\":\"" + thread + "\",\"runId\":\"r2\",\"messages\":[{\"id\":\"m2\",\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"tools\":[],\"context\":[],\"state\":{},\"forwardedProps\":{}}", true).join();
        JsonNode refused = other.next();
        assertThat(refused.path("type").asText()).isEqualTo("RUN_ERROR");
        assertThat(refused.path("code").asText()).isEqualTo("not_found");
        theirs.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        assertThat(given().get("/q/health/live").statusCode()).isEqualTo(200);
    }
}
