package io.conduit.agui;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /ag-ui} on the wire: LF-framed {@code data:} frames only, no {@code [DONE]}, no null field; bad input
 * answered with {@code {detail, code}} before anything is written; a resume that fits no interrupt answered with one
 * RUN_ERROR, the thread untouched.
 */
@QuarkusTest
@TestProfile(AgUiClientTest.Scripted.class)
class AgUiRoutesTest {

    private static String input(String threadId, String text) {
        return "{\"threadId\":\"" + threadId + "\",\"runId\":\"r1\",\"state\":{},\"messages\":[{\"id\":\"u-" + UUID.randomUUID()
                + "\",\"role\":\"user\",\"content\":\"" + text + "\"}],\"tools\":[],\"context\":[],\"forwardedProps\":{}}";
    }

    /** The stream's events, checking the framing of every frame on the way. */
    private static List<JsonNode> events(String body) throws Exception {
        assertThat(body).doesNotContain("\r").doesNotContain("[DONE]").endsWith("\n\n");
        List<JsonNode> out = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            if (frame.startsWith(":")) {
                continue; // a heartbeat comment
            }
            assertThat(frame).startsWith("data: ").doesNotContain("\n");
            out.add(JsonCodec.MAPPER.readTree(frame.substring(6)));
        }
        return out;
    }

    private static void noNulls(JsonNode n, String path) {
        assertThat(n.isNull()).as(path).isFalse();
        if (n.isContainerNode() && !path.endsWith(".snapshot")) { // a state snapshot is the state as it is
            n.fields().forEachRemaining(f -> noNulls(f.getValue(), path + "." + f.getKey()));
            if (n.isArray()) {
                for (int i = 0; i < n.size(); i++) {
                    noNulls(n.get(i), path + "[" + i + "]");
                }
            }
        }
    }

    @Test
    void aRunIsFramedAsTheClientReadsItWithNoNullField() throws Exception {
        String thread = "agui-" + UUID.randomUUID();
        String body = given().contentType("application/json").accept("text/event-stream").body(input(thread, "hello there"))
                .when().post("/ag-ui").then().statusCode(200).contentType(startsWith("text/event-stream")).extract().asString();
        List<JsonNode> events = events(body);
        assertThat(events.get(0).get("type").asText()).isEqualTo("RUN_STARTED");
        assertThat(events.get(0).get("threadId").asText()).isEqualTo(thread);
        assertThat(events.get(events.size() - 1).get("type").asText()).isEqualTo("RUN_FINISHED");
        for (JsonNode e : events) {
            noNulls(e, e.get("type").asText());
        }
        StringBuilder text = new StringBuilder();
        events.stream().filter(e -> e.get("type").asText().equals("TEXT_MESSAGE_CONTENT")).forEach(e -> text.append(e.get("delta").asText()));
        assertThat(text.toString()).isEqualTo("This is the Conduit simulator, not a real model. You said: hello there");
        // the run is an ordinary run of the thread, under our run id
        given().when().get("/threads/{t}/runs/{r}", thread, events.get(0).get("runId").asText()).then().statusCode(200)
                .body("status", equalTo("success")).body("metadata.ag_ui_run_id", equalTo("r1"));
    }

    @Test
    void badInputIsAJsonErrorAndWritesNothing() {
        String thread = "agui-" + UUID.randomUUID();
        given().contentType("application/json").body("{not json").when().post("/ag-ui").then().statusCode(400)
                .contentType("application/json").body("code", equalTo("malformed_json"));
        given().contentType("application/json").body("{\"runId\":\"r\",\"messages\":[]}").when().post("/ag-ui").then().statusCode(422)
                .body("code", equalTo("invalid_input")).body("detail", startsWith("threadId"));
        given().contentType("application/json").body("{\"threadId\":\"" + thread + "\",\"runId\":\"r\",\"messages\":[{\"role\":\"user\"}]}")
                .when().post("/ag-ui").then().statusCode(422).body("detail", startsWith("messages[0]"));
        given().contentType("application/json").body(input(thread, "hi").replace("\"tools\":[]", "\"tools\":[{\"name\":\"bad name\"}]"))
                .when().post("/ag-ui").then().statusCode(422).body("detail", startsWith("config.configurable.client_tools"));
        given().contentType("application/json").body("{\"threadId\":\"" + thread + "\",\"runId\":\"r\",\"messages\":[]}")
                .when().post("/ag-ui").then().statusCode(422).body("detail", startsWith("messages: brings no user or tool message"));
        given().contentType("application/json").body(input(thread, "hi")).when().post("/ag-ui/no-such-assistant").then().statusCode(404)
                .body("code", equalTo("not_found"));
        given().when().get("/threads/{t}", thread).then().statusCode(404);
    }

    @Test
    void aResumeThatFitsNoInterruptIsOneRunErrorAndWritesNothing() throws Exception {
        String thread = "agui-" + UUID.randomUUID();
        String body = given().contentType("application/json").body("{\"threadId\":\"" + thread + "\",\"runId\":\"r\",\"messages\":[],"
                        + "\"resume\":[{\"interruptId\":\"nope\",\"status\":\"resolved\",\"payload\":\"x\"}]}")
                .when().post("/ag-ui").then().statusCode(200).extract().asString();
        List<JsonNode> events = events(body);
        assertThat(events).hasSize(1);
        assertThat(events.get(0).get("type").asText()).isEqualTo("RUN_ERROR");
        assertThat(events.get(0).get("code").asText()).isEqualTo("invalid_resume");
        given().when().get("/threads/{t}", thread).then().statusCode(404);
    }
}
