package io.conduit.llm.simulator;

import static io.conduit.llm.simulator.Requests.body;
import static io.conduit.llm.simulator.Requests.user;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With delays set, the stream goes through the Vert.x timers and still arrives whole and in order (what is checked
 * is the content, not the time it took); with reasoning on, a short thought streams before the answer.
 */
@QuarkusTest
@TestProfile(PacedReasoningStreamTest.PacedAndReasoning.class)
class PacedReasoningStreamTest {

    public static class PacedAndReasoning implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.time-to-first-token", "5ms", "conduit.simulator.inter-token-delay", "1ms",
                    "conduit.simulator.reasoning", "true");
        }
    }

    @Test
    void reasoningStreamsBeforeTheAnswer() throws Exception {
        String sse = given().contentType("application/json").body(body(true, false, user("hello slow world")))
                .when().post("/simulator/v1/chat/completions")
                .then().statusCode(200).extract().asString();
        List<JsonNode> chunks = SseFrames.chunks(sse);

        assertThat(SseFrames.text(chunks, "reasoning_content")).isEqualTo("The user said: \"hello slow world\". I will answer.");
        assertThat(SseFrames.text(chunks, "content")).isEqualTo("This is the Conduit simulator, not a real model. You said: hello slow world");
        int lastThought = -1;
        int firstWord = -1;
        for (int i = 0; i < chunks.size(); i++) {
            JsonNode delta = chunks.get(i).get("choices").get(0).get("delta");
            if (delta.has("reasoning_content")) {
                lastThought = i;
            }
            if (firstWord < 0 && !delta.path("content").asText("").isEmpty()) {
                firstWord = i;
            }
        }
        assertThat(lastThought).isPositive().isLessThan(firstWord);
    }

    @Test
    void theCompletionCarriesTheReasoningToo() {
        given().contentType("application/json").body(body(false, true, user("what time is it?")))
                .when().post("/simulator/v1/chat/completions")
                .then().statusCode(200)
                .body("choices[0].message.reasoning_content", equalTo("The user said: \"what time is it?\". I will call 1 tool(s)."))
                .body("choices[0].message.tool_calls[0].function.name", equalTo("get_current_time"));
    }
}
