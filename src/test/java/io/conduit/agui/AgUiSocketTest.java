package io.conduit.agui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The WebSocket's refusals: no {@code ag-ui} subprotocol closes it (1002), as does {@code ag-ui} asked of the thread
 * protocol's endpoint; a bad frame is a RUN_ERROR and it stays open.
 */
@QuarkusTest
@TestProfile(AgUiClientTest.Scripted.class)
class AgUiSocketTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private WebSocket connect(WebSocketFrames frames, String... subprotocols) {
        return connect("/ag-ui", frames, subprotocols);
    }

    private WebSocket connect(String path, WebSocketFrames frames, String... subprotocols) {
        WebSocket.Builder b = HttpClient.newHttpClient().newWebSocketBuilder();
        if (subprotocols.length > 0) {
            b.subprotocols(subprotocols[0]);
        }
        return b.buildAsync(URI.create("ws://localhost:" + port + path), frames).join();
    }

    @Test
    void theThreadProtocolsSocketDoesNotAcceptTheAgUiSubprotocol() throws Exception {
        // the subprotocol is negotiated for every endpoint (a global setting): the thread protocol's must refuse it
        WebSocketFrames frames = new WebSocketFrames();
        connect("/threads/agui-sub/stream/events", frames, "ag-ui");
        assertThat(frames.closed.get(30, TimeUnit.SECONDS)).isEqualTo(1002); // a bound against a hang, not a timing check
        assertThat(frames.texts).isEmpty();
    }

    @Test
    void withoutTheSubprotocolTheSocketIsClosed() throws Exception {
        WebSocketFrames frames = new WebSocketFrames();
        connect(frames);
        assertThat(frames.closed.get(30, TimeUnit.SECONDS)).isEqualTo(1002); // a bound against a hang, not a timing check
    }

    @Test
    void aBadFrameIsARunErrorAndTheSocketStaysOpenForTheNext() throws Exception {
        WebSocketFrames frames = new WebSocketFrames();
        WebSocket ws = connect(frames, "ag-ui");
        assertThat(ws.getSubprotocol()).isEqualTo("ag-ui");
        ws.sendText("{not json", true).join();
        JsonNode error = JsonCodec.MAPPER.readTree(frames.texts.poll(30, TimeUnit.SECONDS));
        assertThat(error.get("type").asText()).isEqualTo("RUN_ERROR");
        assertThat(error.get("code").asText()).isEqualTo("malformed_json");
        ws.sendText("{\"threadId\":\"t\",\"runId\":\"r\"}", true).join();
        JsonNode invalid = JsonCodec.MAPPER.readTree(frames.texts.poll(30, TimeUnit.SECONDS));
        assertThat(invalid.get("code").asText()).isEqualTo("invalid_input");
        assertThat(invalid.get("message").asText()).startsWith("messages");
        assertThat(frames.closed).isNotDone();
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
    }

    @Test
    void theAssistantComesFromTheQuery() {
        assertThat(AgUiSocket.assistant("x=1&assistant_id=tutor")).isEqualTo("tutor");
        assertThat(AgUiSocket.assistant("assistant_id=")).isEqualTo("agent");
        assertThat(AgUiSocket.assistant(null)).isEqualTo("agent");
    }
}
