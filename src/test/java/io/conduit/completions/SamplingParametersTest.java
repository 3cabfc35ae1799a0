package io.conduit.completions;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The sampling parameters an assistant ignores (it has its own model settings) are still OpenAI's parameters: one of
 * the wrong type or out of OpenAI's range is refused as OpenAI refuses it (400 {@code invalid_type} or
 * {@code invalid_value}, {@code param} naming it), never read as absent, and no turn runs: the conversation's thread
 * does not exist afterwards.
 */
@QuarkusTest
class SamplingParametersTest {

    private static void refused(String param, Object value, String code) {
        String thread = "sampling-" + UUID.randomUUID();
        Map<String, Object> body = new java.util.HashMap<>(Map.of("model", "agent", "messages", List.of(Map.of("role", "user", "content", "hi"))));
        body.put(param, value);
        given().contentType("application/json").header("X-Conduit-Thread", thread).body(body).when().post("/v1/chat/completions")
                .then().statusCode(400).contentType("application/json").body("error.type", equalTo("invalid_request_error"))
                .body("error.code", equalTo(code)).body("error.param", equalTo(param));
        given().when().get("/threads/{t}", thread).then().statusCode(404);
    }

    @Test
    void wrongTypesAreRefusedAndNoTurnRuns() {
        refused("temperature", "hot", "invalid_type");
        refused("top_p", List.of(1), "invalid_type");
        refused("max_tokens", 2.5, "invalid_type");
        refused("max_completion_tokens", "100", "invalid_type");
        refused("presence_penalty", true, "invalid_type");
        refused("frequency_penalty", "0", "invalid_type");
        refused("seed", "7", "invalid_type");
        refused("stop", 5, "invalid_type");
        refused("tools", "all", "invalid_type");
        refused("tool_choice", 3, "invalid_type");
        refused("response_format", "json", "invalid_type");
        refused("parallel_tool_calls", "yes", "invalid_type");
        refused("logprobs", 1, "invalid_type");
        refused("user", 42, "invalid_type");
    }

    @Test
    void valuesOutOfOpenAisRangesAreRefused() {
        refused("temperature", 2.5, "invalid_value");
        refused("top_p", -0.1, "invalid_value");
        refused("max_tokens", 0, "invalid_value");
        refused("presence_penalty", 3, "invalid_value");
        refused("stop", List.of("a", "b", "c", "d", "e"), "invalid_value");
    }

    @Test
    void rightTypesAreAcceptedAndIgnored() {
        String thread = "sampling-ok-" + UUID.randomUUID();
        given().contentType("application/json").header("X-Conduit-Thread", thread)
                .body(Map.of("model", "agent", "messages", List.of(Map.of("role", "user", "content", "hi")), "temperature", 0.2, "top_p", 1,
                        "max_tokens", 64, "stop", List.of("\n\n"), "seed", 7, "tool_choice", "auto", "response_format", Map.of("type", "text")))
                .when().post("/v1/chat/completions").then().statusCode(200).body("object", equalTo("chat.completion"));
    }
}
