package io.conduit.aisdk;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The chat stream over real runs, whichever API started them: a run of the Agent Server API read on
 * {@code GET /ai-sdk/chat/{thread}/stream} (its id is the UI message's, reasoning and server tools included, the text
 * the state's); a run cancelled mid-answer ends the stream with {@code abort}; a chat turn on a busy thread with
 * {@code multitask_strategy: reject} is refused by the runs' own rule, before anything is written; a queued turn cancelled
 * before it starts (no protocol events at all) still ends its stream.
 */
@QuarkusTest
@TestProfile(AiSdkChatTest.Paced.class)
class ChatStreamOnRunsTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A chat stream's parts as they come; {@code [DONE]} as a text node. */
    private static final class Parts implements AutoCloseable {
        final HttpResponse<java.io.InputStream> response;
        final BufferedReader reader;
        final List<JsonNode> seen = new ArrayList<>();

        Parts(String path) throws Exception {
            response = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            reader = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
        }

        /** Reads until a part matches (or the stream ends); the parts so far. */
        List<JsonNode> until(Predicate<JsonNode> wanted) throws Exception {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    String data = line.substring(6);
                    JsonNode part = data.equals("[DONE]") ? JsonCodec.MAPPER.getNodeFactory().textNode(data) : JsonCodec.MAPPER.readTree(data);
                    seen.add(part);
                    if (wanted.test(part)) {
                        break;
                    }
                }
            }
            return seen;
        }

        List<JsonNode> all() throws Exception {
            return until(p -> false);
        }

        @Override
        public void close() throws Exception {
            reader.close();
        }
    }

    private static String type(JsonNode part) {
        return part.isTextual() ? part.asText() : part.path("type").asText();
    }

    private static String startRun(String thread, String text) {
        return given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "if_not_exists", "create", "input", Map.of("messages", List.of(Map.of("role", "user", "content", text)))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
    }

    @Test
    void aRunOfTheAgentServerApiReadsOnTheChatStream() throws Exception {
        String thread;
        String run;
        List<JsonNode> parts = null;
        int attempts = 0;
        do { // the stream follows a run that is going: on a loaded machine the short turn may end before it connects (204)
            assertThat(attempts++).as("attempts to catch the turn while it runs").isLessThan(5);
            thread = "chat-" + UUID.randomUUID();
            run = startRun(thread, "Please plan my week");
            try (Parts p = new Parts(ChatRoutes.BASE + "/" + thread + "/stream")) {
                if (p.response.statusCode() == 204) {
                    continue;
                }
                assertThat(p.response.statusCode()).isEqualTo(200);
                assertThat(p.response.headers().firstValue("x-vercel-ai-ui-message-stream")).hasValue("v1");
                parts = p.all();
            }
        } while (parts == null);
        List<String> types = parts.stream().map(ChatStreamOnRunsTest::type).toList();
        assertThat(parts.get(0).get("messageId").asText()).isEqualTo(run);
        assertThat(types).contains("reasoning-start", "reasoning-delta", "reasoning-end", "tool-input-available", "tool-output-available",
                "data-planning_retry");
        assertThat(types.subList(types.size() - 3, types.size())).containsExactly("finish-step", "finish", "[DONE]");
        StringBuilder text = new StringBuilder();
        parts.stream().filter(x -> type(x).equals("text-delta")).forEach(x -> text.append(x.get("delta").asText()));
        JsonNode values = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString()).get("values");
        JsonNode lastAi = null;
        for (JsonNode m : values.get("messages")) {
            if ("ai".equals(m.path("type").asText())) {
                lastAi = m;
            }
        }
        // every model call streams text (the planner's too): the answer is the end of what streamed
        assertThat(text.toString()).endsWith(lastAi.get("content").asText());
        given().when().get(ChatRoutes.BASE + "/{t}/stream", thread).then().statusCode(204);
    }

    @Test
    void aRunCancelledMidAnswerEndsTheChatStreamWithAbort() throws Exception {
        String thread = "chat-" + UUID.randomUUID();
        String run = startRun(thread, "tick ".repeat(1500).trim());
        try (Parts p = new Parts(ChatRoutes.BASE + "/" + thread + "/stream")) {
            p.until(x -> type(x).equals("text-delta"));
            given().when().post("/threads/{t}/runs/{r}/cancel", thread, run).then().statusCode(202);
            List<String> types = p.all().stream().map(ChatStreamOnRunsTest::type).toList();
            assertThat(types.subList(types.size() - 4, types.size())).containsExactly("text-end", "finish-step", "abort", "[DONE]");
        }
    }

    @Test
    void aQueuedTurnCancelledBeforeItStartsEndsItsStreamWithAbort() throws Exception {
        String thread = "chat-" + UUID.randomUUID();
        String running = startRun(thread, "tick ".repeat(1500).trim());
        String body = JsonCodec.MAPPER.writeValueAsString(Map.of("id", thread,
                "messages", List.of(Map.of("id", "u1", "role", "user", "parts", List.of(Map.of("type", "text", "text", "hello"))))));
        HttpResponse<java.io.InputStream> turn = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + ChatRoutes.BASE))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(turn.statusCode()).isEqualTo(200); // enqueued behind the running run: it has not started
        String queued = null;
        for (JsonNode r : JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString())) {
            if (!r.get("run_id").asText().equals(running)) {
                queued = r.get("run_id").asText();
                assertThat(r.get("status").asText()).isEqualTo("pending");
            }
        }
        given().when().post("/threads/{t}/runs/{r}/cancel", thread, queued).then().statusCode(202);
        String stream = new String(turn.body().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(stream).isEqualTo("data: {\"type\":\"start\",\"messageId\":\"" + queued + "\"}\n\n"
                + "data: {\"type\":\"abort\",\"reason\":\"the run was cancelled\"}\n\ndata: [DONE]\n\n");
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, running).then().statusCode(200);
    }

    @Test
    void aChatTurnOnABusyThreadWithRejectIsRefusedBeforeAnythingIsWritten() throws Exception {
        String thread = "chat-" + UUID.randomUUID();
        String run = startRun(thread, "tick ".repeat(1500).trim());
        String body = JsonCodec.MAPPER.writeValueAsString(Map.of("id", thread, "multitask_strategy", "reject",
                "messages", List.of(Map.of("id", "u1", "role", "user", "parts", List.of(Map.of("type", "text", "text", "hello"))))));
        given().contentType("application/json").body(body).when().post(ChatRoutes.BASE).then().statusCode(409)
                .body("code", org.hamcrest.Matchers.equalTo("thread_busy"));
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(1));
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, run).then().statusCode(200);
    }

    @Test
    void aChatOnAThreadOfAnotherGraphIsRefusedAndItsAssistantInThePathIsServed() throws Exception {
        String thread = "chat-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread, "metadata", Map.of("graph_id", "tutor")))
                .when().post("/threads").then().statusCode(200);
        String body = JsonCodec.MAPPER.writeValueAsString(Map.of("id", thread,
                "messages", List.of(Map.of("id", "u1", "role", "user", "parts", List.of(Map.of("type", "text", "text", "hello"))))));
        given().contentType("application/json").body(body).when().post(ChatRoutes.BASE).then().statusCode(409)
                .body("code", org.hamcrest.Matchers.equalTo("thread_graph_mismatch"));
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(0));
        String stream = given().contentType("application/json").body(body).when().post(ChatRoutes.BASE + "/tutor").then().statusCode(200)
                .header("x-vercel-ai-ui-message-stream", "v1").extract().asString();
        assertThat(stream).startsWith("data: {\"type\":\"start\"").endsWith("data: [DONE]\n\n");
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(1));
    }
}
