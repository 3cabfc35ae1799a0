package io.conduit.llm;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.agent.port.LanguageModel;
import io.conduit.kernel.JsonCodec;
import io.conduit.llm.simulator.SimulatedLanguageModel;
import io.quarkus.arc.ClientProxy;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The whole service with {@code conduit.llm.provider=simulated}: the agent's model is the in-process simulated model
 * (the HTTP endpoint is switched off, so nothing can reach it), paced by Vert.x timers, and a run through the API gets
 * the demo script's tool calls and answer.
 */
@QuarkusTest
@TestProfile(SimulatedProviderRunTest.InProcess.class)
class SimulatedProviderRunTest {

    public static class InProcess implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.llm.provider", "simulated",
                    "conduit.simulator.enabled", "false",
                    "conduit.simulator.time-to-first-token", "2ms",
                    "conduit.simulator.inter-token-delay", "1ms");
        }
    }

    private static final String PLAN = "Here is a plan for your week: start with the basics this morning, practise after lunch, "
            + "and review in the evening. I checked the time, and I will remember what you tell me about your week.";

    @Inject
    LanguageModel model;

    private static String newThread() {
        String thread = "simulated-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        return thread;
    }

    private static Map<String, Object> planMyWeek(Object streamMode) {
        return Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))),
                "config", Map.of("configurable", Map.of("user_id", "ada")), "stream_mode", streamMode);
    }

    @Test
    void theAgentsModelIsTheInProcessOne() {
        assertThat(ClientProxy.unwrap(model)).isInstanceOf(MeteredLanguageModel.class);
        assertThat(((MeteredLanguageModel) ClientProxy.unwrap(model)).delegate()).isInstanceOf(SimulatedLanguageModel.class);
        given().contentType("application/json").body("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")
                .when().post("/simulator/v1/chat/completions").then().statusCode(404);
    }

    @Test
    void aRunThroughTheApiGetsTheScriptedToolCallsAndAnswer() throws Exception {
        String thread = newThread();

        String body = given().contentType("application/json").body(planMyWeek("values"))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString();

        JsonNode values = JsonCodec.MAPPER.readTree(body);
        JsonNode messages = values.get("messages");
        JsonNode answer = messages.get(messages.size() - 1);
        assertThat(answer.get("type").asText()).isEqualTo("ai");
        assertThat(answer.get("content").asText()).isEqualTo(PLAN);
        List<String> tools = new ArrayList<>();
        messages.forEach(m -> {
            if (m.get("type").asText().equals("tool")) {
                tools.add(m.get("name").asText());
            }
        });
        assertThat(tools).containsExactlyInAnyOrder("get_current_time", "recall", "get_current_time");
        List<String> providers = new ArrayList<>();
        values.get("llm_calls").forEach(c -> providers.add(c.get("provider").asText() + "/" + c.get("model").asText()));
        assertThat(providers).isNotEmpty().containsOnly("simulated/conduit-simulator");
    }

    @Test
    void theAnswerStreamsTokenByTokenAndAddsUpToTheMessageInState() throws Exception {
        String thread = newThread();

        String body = given().contentType("application/json").body(planMyWeek(List.of("messages-tuple", "values")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();

        StringBuilder streamed = new StringBuilder();
        int chunks = 0;
        JsonNode lastValues = null;
        for (String frame : body.split("\n\n")) {
            String event = null;
            String data = null;
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if ("messages".equals(event)) {
                JsonNode m = JsonCodec.MAPPER.readTree(data).get(0);
                if (m.get("type").asText().equals("AIMessageChunk") && !m.get("content").asText().isEmpty()) {
                    streamed.append(m.get("content").asText());
                    chunks++;
                }
            } else if ("values".equals(event)) {
                lastValues = JsonCodec.MAPPER.readTree(data);
            }
        }
        assertThat(body).contains("event: end");
        assertThat(streamed.toString()).isEqualTo(PLAN);
        assertThat(chunks).as("one chunk per word").isEqualTo(PLAN.split(" ").length);
        JsonNode messages = lastValues.get("messages");
        assertThat(messages.get(messages.size() - 1).get("content").asText()).isEqualTo(PLAN);
    }
}
