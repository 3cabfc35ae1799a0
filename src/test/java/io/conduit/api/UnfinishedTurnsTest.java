package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Turns that do not end the ordinary way, through the API, on the simulator (which, as OpenAI, refuses a
 * conversation with tool calls left unanswered): a turn stopped between the planner's tool calls and their results,
 * then a new message; a client that goes away in the middle of a stream. The simulator answers slowly enough here
 * for a run to be under way when its client leaves.
 */
@QuarkusTest
@TestProfile(UnfinishedTurnsTest.SlowSimulator.class)
class UnfinishedTurnsTest {

    public static class SlowSimulator implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.time-to-first-token", "20ms", "conduit.simulator.inter-token-delay", "20ms");
        }
    }

    private static Map<String, Object> say(String text) {
        return Map.of("messages", List.of(Map.of("role", "user", "content", text)));
    }

    private static String newThread() {
        String thread = "unfinished-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        return thread;
    }

    @Test
    void aNewMessageAfterATurnStoppedBetweenToolCallsAndResultsIsAnswered() throws Exception {
        String thread = newThread();
        // the first turn stops after the planner asked for its two tools, before they ran
        String stopped = given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "input", say("Please plan my week"), "interrupt_before", List.of("tool_executor")))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString();
        JsonNode left = JsonCodec.MAPPER.readTree(stopped.trim()).get("messages");
        assertThat(left).as(stopped).hasSize(2);
        assertThat(left.get(1).get("tool_calls")).as("calls no tool message answers").hasSize(2);

        String body = given().contentType("application/json").body(Map.of("assistant_id", "agent", "input", say("Thanks, that is all")))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString();
        JsonNode values = JsonCodec.MAPPER.readTree(body.trim());
        assertThat(values.has("__error__")).as("the second turn failed: %s", body).isFalse();

        JsonNode messages = values.get("messages");
        List<String> types = new ArrayList<>();
        messages.forEach(m -> types.add(m.get("type").asText()));
        assertThat(types).containsExactly("human", "ai", "tool", "tool", "human", "ai");
        JsonNode calls = messages.get(1).get("tool_calls");
        assertThat(calls).hasSize(2);
        for (int i = 0; i < 2; i++) {
            JsonNode closing = messages.get(2 + i);
            assertThat(closing.get("tool_call_id").asText()).isEqualTo(calls.get(i).get("id").asText());
            assertThat(closing.get("status").asText()).isEqualTo("error");
            assertThat(closing.get("content").asText()).startsWith("interrupted");
        }
        assertThat(messages.get(4).get("content").asText()).isEqualTo("Thanks, that is all");
        assertThat(messages.get(5).get("content").asText()).isNotBlank();
    }

    @Test
    void aClientThatGoesAwayMidStreamDoesNotStopItsRun() throws Exception {
        String thread = newThread();
        String request = JsonCodec.MAPPER.writeValueAsString(Map.of("assistant_id", "agent", "input", say("Please plan my week"),
                "stream_mode", List.of("values", "messages-tuple")));
        String runPath;
        String statusWhenGone;
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            byte[] bytes = request.getBytes(StandardCharsets.UTF_8);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /threads/" + thread + "/runs/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Accept: text/event-stream\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String status = in.readLine();
            assertThat(status).contains(" 200 ");
            runPath = null;
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                if (line.toLowerCase().startsWith("content-location:")) {
                    runPath = line.substring(line.indexOf(':') + 1).trim();
                }
            }
            assertThat(runPath).isNotNull();
            // the first event, then the client is gone: the connection closes mid-stream
            String line;
            do {
                line = in.readLine();
            } while (line != null && !line.startsWith("event:") && !line.contains("event: "));
            assertThat(line).contains("metadata");
            statusWhenGone = given().when().get(runPath).then().statusCode(200).extract().path("status");
        }
        assertThat(statusWhenGone).as("the run was under way when its client left").isIn("pending", "running");

        String runId = runPath.substring(runPath.lastIndexOf('/') + 1);
        assertThat(RunRecoveryTest.awaitEnd(thread, runId)).isEqualTo("success");
        JsonNode values = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/state", thread).then().statusCode(200)
                .extract().asString()).get("values");
        JsonNode messages = values.get("messages");
        JsonNode last = messages.get(messages.size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("ai");
        assertThat(last.get("content").asText()).startsWith("Here is a plan for your week");
    }
}
