package io.conduit.stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.EmptyMessages;
import io.conduit.WebSocketFrames;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through the thread protocol: {@code run.start} with an input that brings no usable user message and
 * {@code input.inject} of an empty message are answered with an {@code invalid_argument} error, over the WebSocket
 * (which stays open) and over HTTP commands alike; nothing is written (a thread to create is not created, no run is
 * queued) and the thread takes a good turn after.
 */
@QuarkusTest
class EmptyMessagesOverProtocolTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    /** A command channel: the WebSocket or HTTP commands. */
    private interface Commands {
        JsonNode send(int id, String method, String params) throws Exception;
    }

    private Commands socket(String thread, WebSocketFrames frames) {
        WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://localhost:" + port + "/threads/" + thread + "/stream/events"), frames).join();
        return (id, method, params) -> {
            ws.sendText("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}", true).join();
            while (true) {
                JsonNode f = frames.next();
                assertThat(f).as("an answer to command " + id).isNotNull();
                if (f.path("id").asInt(-1) == id) {
                    return f;
                }
            }
        };
    }

    private Commands overHttp(String thread) {
        return (id, method, params) -> {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/threads/" + thread + "/commands"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            return JsonCodec.MAPPER.readTree(r.body());
        };
    }

    private static void refused(JsonNode answer, String field) {
        assertThat(answer.path("type").asText()).as(answer.toString()).isEqualTo("error");
        assertThat(answer.path("error").asText()).as(answer.toString()).isEqualTo("invalid_argument");
        assertThat(answer.path("message").asText()).as(answer.toString()).contains(field);
    }

    private static String runStart(String input) {
        return "{\"assistant_id\":\"agent\",\"input\":" + input + "}";
    }

    private static int runs(String thread) {
        return given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().path("size()");
    }

    /** Waits for the run's end and says how it ended. */
    private static String ended(String thread, String run) {
        given().when().get("/threads/{t}/runs/{r}/join", thread, run).then().statusCode(200);
        return given().when().get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200).extract().path("status");
    }

    private void refusesEmptyMessages(java.util.function.Function<String, Commands> channel) throws Exception {
        // run.start on a thread that does not exist yet: it is not created
        String fresh = "protocol-empty-" + UUID.randomUUID();
        Commands c = channel.apply(fresh);
        int id = 1;
        for (String input : EmptyMessages.inputs()) {
            refused(c.send(id++, "run.start", runStart(input)), "input.messages");
        }
        given().when().get("/threads/{t}", fresh).then().statusCode(404);

        // on a thread with a turn: input.inject of an empty message queues nothing, and the thread goes on
        JsonNode started = c.send(id++, "run.start", runStart("{\"messages\":[{\"role\":\"user\",\"content\":\"first\"}]}"));
        String first = started.path("result").path("run_id").asText();
        assertThat(ended(fresh, first)).isEqualTo("success");
        for (String content : List.of("\"\"", "\"   \"", "\" \\n\\t \"")) {
            refused(c.send(id++, "input.inject", "{\"namespace\":[],\"message\":{\"role\":\"user\",\"content\":" + content + "}}"), "input.messages");
        }
        for (String input : EmptyMessages.inputs()) {
            refused(c.send(id++, "run.start", runStart(input)), "input.messages");
        }
        assertThat(runs(fresh)).isEqualTo(1);
        JsonNode next = c.send(id++, "input.inject", "{\"namespace\":[],\"message\":{\"role\":\"user\",\"content\":\"second\"}}");
        assertThat(ended(fresh, next.path("result").path("run_id").asText())).isEqualTo("success");
    }

    @Test
    void overTheWebSocketAnEmptyMessageIsAnInvalidArgumentAndTheSocketStaysOpen() throws Exception {
        WebSocketFrames frames = new WebSocketFrames();
        refusesEmptyMessages(thread -> socket(thread, frames));
        assertThat(frames.closed).isNotDone();
    }

    @Test
    void overHttpCommandsAnEmptyMessageIsAnInvalidArgument() throws Exception {
        refusesEmptyMessages(this::overHttp);
    }
}
