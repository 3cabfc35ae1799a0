package io.conduit.completions;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Refusals in OpenAI's error shape with OpenAI's statuses, each before anything is written: the conversation's thread
 * named by the header does not exist afterwards.
 */
@QuarkusTest
class ChatCompletionErrorsTest {

    private static ValidatableResponse post(String thread, Object body) {
        var req = given().contentType("application/json").body(body);
        if (thread != null) {
            req = req.header("X-Conduit-Thread", thread);
        }
        return req.when().post("/v1/chat/completions").then().contentType("application/json");
    }

    private static ValidatableResponse refused(String thread, Object body, int status, String param, String code) {
        ValidatableResponse r = post(thread, body).statusCode(status)
                .body("error.code", equalTo(code)).body("error.type", equalTo("invalid_request_error"));
        r = param == null ? r.body("error.param", nullValue()) : r.body("error.param", equalTo(param));
        given().when().get("/threads/{t}", thread).then().statusCode(404); // nothing written
        return r;
    }

    private static Map<String, Object> user(String text) {
        return Map.of("role", "user", "content", text);
    }

    @Test
    void badRequestsAreRefusedInOpenAisShapeAndWriteNothing() {
        String t = "refused-" + UUID.randomUUID();
        refused(t, "{not json", 400, null, "invalid_json");
        refused(t, "[1]", 400, null, "invalid_json");
        refused(t, Map.of("messages", List.of(user("hi"))), 400, "model", "missing_required_parameter");
        refused(t, Map.of("model", "agent"), 400, "messages", "missing_required_parameter")
                .body("error.message", equalTo("Missing required parameter: 'messages'."));
        refused(t, Map.of("model", "agent", "messages", "hi"), 400, "messages", "invalid_type");
        refused(t, Map.of("model", "agent", "messages", List.of()), 400, "messages", "empty_array");
        refused(t, Map.of("model", "agent", "messages", List.of(Map.of("role", "robot", "content", "x"))), 400, "messages[0].role", "invalid_value");
        refused(t, Map.of("model", "agent", "messages", List.of(Map.of("content", "x"))), 400, "messages[0].role", "missing_required_parameter");
        refused(t, Map.of("model", "agent", "messages", List.of(Map.of("role", "system", "content", "be brief"))), 400, "messages", "invalid_value");
        refused(t, Map.of("model", "agent", "messages", List.of(user("hi"), Map.of("role", "tool", "content", "x"))), 400, "messages[1]", "invalid_value");
        refused(t, Map.of("model", "agent", "stream", "yes", "messages", List.of(user("hi"))), 400, "stream", "invalid_type");
        refused(t, Map.of("model", "agent", "n", 2, "messages", List.of(user("hi"))), 400, "n", "invalid_value");
        refused(t, Map.of("model", "no-such-assistant", "messages", List.of(user("hi"))), 404, "model", "model_not_found");
        refused(t, Map.of("model", "no-such-assistant", "stream", true, "messages", List.of(user("hi"))), 404, "model", "model_not_found");
        refused(t, Map.of("model", "request", "messages", List.of(user("hi"))), 400, "model", "model_not_supported");
        post("bad id", Map.of("model", "agent", "messages", List.of(user("hi")))).statusCode(400)
                .body("error.param", equalTo("X-Conduit-Thread")).body("error.code", equalTo("invalid_value"));
    }

    @Test
    void anUnknownModelIsNotFoundOnTheModelsEndpointToo() {
        given().when().get("/v1/models/no-such-assistant").then().statusCode(404).contentType("application/json")
                .body("error.code", equalTo("model_not_found")).body("error.param", equalTo("model"));
        given().when().get("/v1/models/agent").then().statusCode(200).body("id", equalTo("agent")).body("object", equalTo("model"));
        // the request blueprint takes {input: {message}}, not chat messages: not a model
        given().when().get("/v1/models/request").then().statusCode(404).body("error.code", equalTo("model_not_found"));
        given().when().get("/v1/models").then().statusCode(200)
                .body("data.id", org.hamcrest.Matchers.hasItems("agent", "tutor")).body("data.id", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasItem("request")));
    }

    @Test
    void aStatelessCallLeavesNoThreadBehind() {
        long before = threads();
        String thread = post(null, Map.of("model", "agent", "messages", List.of(Map.of("role", "system", "content", "be brief"), user("hello stateless"))))
                .statusCode(200)
                .body("choices[0].message.content", org.hamcrest.Matchers.endsWith("You said: hello stateless"))
                .extract().header("X-Conduit-Thread");
        assertThat(thread).isNull();
        assertThat(threads()).isEqualTo(before); // its temporary thread was deleted before the answer
    }

    private static long threads() {
        return Long.parseLong(given().contentType("application/json").body("{}").when().post("/threads/count").then().statusCode(200).extract().asString().trim());
    }
}
