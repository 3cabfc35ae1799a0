package io.conduit.agui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through AG-UI: a user message with no text, in each shape AG-UI clients send it, is refused before anything
 * is written, with 422 {@code invalid_input} over HTTP and a RUN_ERROR {@code invalid_input} over the WebSocket (which
 * stays open); the thread is not created, and a good message after runs.
 */
@QuarkusTest
class EmptyMessagesOverAgUiTest {

    /** The {@code content} of AG-UI user messages with nothing in them (absent: no content field). */
    private static final List<String> EMPTY_CONTENTS = List.of("\"\"", "null", "\"  \\n \"", "[]", "[{\"type\":\"text\",\"text\":\"\"}]", "absent");

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private static String input(String thread, String content) {
        String field = content.equals("absent") ? "" : ",\"content\":" + content;
        return "{\"threadId\":\"" + thread + "\",\"runId\":\"r1\",\"state\":{},\"messages\":[{\"id\":\"u-" + UUID.randomUUID()
                + "\",\"role\":\"user\"" + field + "}],\"tools\":[],\"context\":[],\"forwardedProps\":{}}";
    }

    private static void answersAGoodMessage(String thread) {
        String body = given().contentType("application/json").accept("text/event-stream").body(input(thread, "\"hello there\""))
                .when().post("/ag-ui").then().statusCode(200).extract().asString();
        assertThat(body).contains("RUN_FINISHED").doesNotContain("RUN_ERROR");
        // the stream ended with the run: the thread's newest message is the model's answer to this one
        java.util.List<String> contents = given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().path("values.messages.content");
        assertThat(contents.get(contents.size() - 1)).endsWith("You said: hello there");
    }

    @Test
    void overHttpAnEmptyUserMessageIs422AndWritesNothing() {
        String thread = "agui-empty-" + UUID.randomUUID();
        for (String content : EMPTY_CONTENTS) {
            given().contentType("application/json").accept("text/event-stream").body(input(thread, content)).when().post("/ag-ui")
                    .then().statusCode(422).contentType(containsString("application/json"))
                    .body("code", equalTo("invalid_input")).body("detail", startsWith("messages[0].content: message u-"));
        }
        given().when().get("/threads/{t}", thread).then().statusCode(404);
        answersAGoodMessage(thread);
        // and on the thread that now exists: no run is added for an empty message
        for (String content : EMPTY_CONTENTS) {
            given().contentType("application/json").body(input(thread, content)).when().post("/ag-ui").then().statusCode(422);
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
        answersAGoodMessage(thread);
    }

    @Test
    void overTheWebSocketAnEmptyUserMessageIsARunErrorAndWritesNothing() throws Exception {
        WebSocketFrames frames = new WebSocketFrames();
        WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder().subprotocols("ag-ui")
                .buildAsync(URI.create("ws://localhost:" + port + "/ag-ui"), frames).join();
        String thread = "agui-ws-empty-" + UUID.randomUUID();
        for (String content : EMPTY_CONTENTS) {
            ws.sendText(input(thread, content), true).join();
            JsonNode error = JsonCodec.MAPPER.readTree(frames.texts.poll(30, TimeUnit.SECONDS)); // a bound against a hang
            assertThat(error.path("type").asText()).as(error.toString()).isEqualTo("RUN_ERROR");
            assertThat(error.path("code").asText()).as(error.toString()).isEqualTo("invalid_input");
            assertThat(error.path("message").asText()).startsWith("messages[0].content: message u-");
        }
        assertThat(frames.closed).isNotDone();
        given().when().get("/threads/{t}", thread).then().statusCode(404);
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").join();
        answersAGoodMessage(thread);
    }
}
