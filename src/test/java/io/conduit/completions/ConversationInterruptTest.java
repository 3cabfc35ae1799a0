package io.conduit.completions;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An assistant that asks when its tools find nothing (the agent with {@code clarify_on_failure} and no re-plans): the
 * answer ends with its question and {@code finish_reason: "stop"}, and the conversation's next message answers it
 * (the run resumes the interrupt instead of starting a turn). The assistant was created through the Agent Server API
 * and is listed as a model.
 */
@QuarkusTest
class ConversationInterruptTest {

    @Test
    void anInterruptIsAskedAsTheAnswerAndTheNextMessageAnswersIt() throws Exception {
        String assistant = "asks-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("graph_id", "agent", "assistant_id", assistant,
                        "config", Map.of("configurable", Map.of("retry_budget", 0, "clarify_on_failure", true))))
                .when().post("/assistants").then().statusCode(200);
        given().when().get("/v1/models").then().statusCode(200).body("object", equalTo("list"))
                .body("data.id", org.hamcrest.Matchers.hasItems("agent", assistant));

        String thread = "asks-" + UUID.randomUUID();
        JsonNode asked = complete(thread, assistant, "please plan my week");
        assertThat(asked.get("choices").get(0).get("message").get("content").asText()).contains("Can you tell me more?");
        assertThat(asked.get("choices").get(0).get("finish_reason").asText()).isEqualTo("stop");
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", equalTo("interrupted"));

        JsonNode answered = complete(thread, assistant, "the week of the conference");
        assertThat(answered.get("choices").get(0).get("message").get("content").asText()).isNotBlank();
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", equalTo("idle"));
        JsonNode state = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
        List<String> humans = new java.util.ArrayList<>();
        state.get("values").get("messages").forEach(m -> {
            if (m.get("type").asText().equals("human")) {
                humans.add(m.get("content").asText());
            }
        });
        // the answer went in as the interrupt's resume value (the verifier writes it as the user's clarification)
        assertThat(humans).containsExactly("please plan my week", "the week of the conference");
        JsonNode runs = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString());
        assertThat(runs).hasSize(2);
        assertThat(runs.toString()).contains("\"resume\":\"the week of the conference\"");
    }

    private static JsonNode complete(String thread, String model, String text) throws Exception {
        String body = given().contentType("application/json").header("X-Conduit-Thread", thread)
                .body(Map.of("model", model, "messages", List.of(Map.of("role", "user", "content", text))))
                .when().post("/v1/chat/completions").then().statusCode(200).header("X-Conduit-Thread", thread)
                .extract().asString();
        return JsonCodec.MAPPER.readTree(body);
    }
}
