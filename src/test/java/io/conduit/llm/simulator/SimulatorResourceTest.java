package io.conduit.llm.simulator;

import static io.conduit.llm.simulator.Requests.body;
import static io.conduit.llm.simulator.Requests.user;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

/** Non-streamed answers, the model list, and bad requests answered in OpenAI's error shape. */
@QuarkusTest
class SimulatorResourceTest {

    private static ValidatableResponse post(String body) {
        return given().contentType("application/json").body(body).when().post("/simulator/v1/chat/completions").then();
    }

    @Test
    void withoutStreamTheAnswerIsOneChatCompletion() {
        post(body(false, false, user("hi there")))
                .statusCode(200).contentType("application/json")
                .body("id", startsWith("chatcmpl-"))
                .body("object", equalTo("chat.completion"))
                .body("model", equalTo("sim-test"))
                .body("choices", hasSize(1))
                .body("choices[0].message.role", equalTo("assistant"))
                .body("choices[0].message.content", equalTo("This is the Conduit simulator, not a real model. You said: hi there"))
                .body("choices[0].finish_reason", equalTo("stop"))
                .body("usage.prompt_tokens", equalTo(2))
                .body("usage.completion_tokens", equalTo(13))
                .body("usage.total_tokens", equalTo(15));
    }

    @Test
    void withoutStreamToolCallsComeWholeWithDistinctIds() {
        post(body(false, true, user("good morning!")))
                .statusCode(200)
                .body("choices[0].finish_reason", equalTo("tool_calls"))
                .body("choices[0].message.content", nullValue())
                .body("choices[0].message.tool_calls", hasSize(2))
                .body("choices[0].message.tool_calls[0].type", equalTo("function"))
                .body("choices[0].message.tool_calls[0].function.name", equalTo("get_current_time"))
                .body("choices[0].message.tool_calls[0].function.arguments", equalTo("{}"))
                .body("choices[0].message.tool_calls[1].function.name", equalTo("recall"))
                .body("choices[0].message.tool_calls[1].function.arguments", equalTo("{\"key\":\"name\"}"))
                .body("choices[0].message.tool_calls[0].id", not(equalTo("")))
                .body("choices[0].message.tool_calls[1].id", startsWith("call_"));
    }

    @Test
    void anyAcceptHeaderGetsTheAnswer() {
        for (String accept : new String[] {"application/json", "text/event-stream", "*/*", "text/plain"}) {
            given().contentType("application/json").accept(accept).body(body(false, false, user("x")))
                    .when().post("/simulator/v1/chat/completions")
                    .then().statusCode(200).body("object", equalTo("chat.completion"));
        }
    }

    @Test
    void malformedJsonIsA400InOpenAisShape() {
        post("{\"messages\": [").statusCode(400).contentType("application/json")
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.code", equalTo("invalid_json"))
                .body("error.message", startsWith("We could not parse the JSON body of your request"));
        post("[1, 2]").statusCode(400).body("error.code", equalTo("invalid_json"));
        post("").statusCode(400).body("error.code", equalTo("invalid_json"));
    }

    @Test
    void missingOrEmptyMessagesAreNamed() {
        post("{\"model\":\"m\"}").statusCode(400)
                .body("error.code", equalTo("missing_required_parameter"))
                .body("error.param", equalTo("messages"))
                .body("error.message", equalTo("Missing required parameter: 'messages'."));
        post("{\"messages\":[]}").statusCode(400).body("error.code", equalTo("empty_array"));
        post("{\"messages\":\"hello\"}").statusCode(400).body("error.code", equalTo("invalid_type"));
    }

    @Test
    void anUnknownRoleOrMalformedMessageIsNamedByItsPath() {
        post("{\"messages\":[" + user("a") + ",{\"role\":\"wizard\",\"content\":\"x\"}]}").statusCode(400)
                .body("error.code", equalTo("invalid_value"))
                .body("error.param", equalTo("messages[1].role"))
                .body("error.message", startsWith("Invalid value: 'wizard'. Supported values are:"));
        post("{\"messages\":[{\"content\":\"x\"}]}").statusCode(400)
                .body("error.code", equalTo("missing_required_parameter")).body("error.param", equalTo("messages[0].role"));
        post("{\"messages\":[{\"role\":\"user\",\"content\":42}]}").statusCode(400)
                .body("error.code", equalTo("invalid_type")).body("error.param", equalTo("messages[0].content"));
        post("{\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}").statusCode(400)
                .body("error.param", equalTo("messages[0].tool_call_id"));
        post("{\"stream\":\"yes\",\"messages\":[" + user("a") + "]}").statusCode(400)
                .body("error.code", equalTo("invalid_type")).body("error.param", equalTo("stream"));
    }

    @Test
    void toolCallsWithoutAToolMessageEachAreRefusedAsOpenAiRefusesThem() {
        String calls = "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                + "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}},"
                + "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"b\",\"arguments\":\"{}\"}}]}";
        String c1 = "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"one\"}";
        String c2 = "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"two\"}";
        post("{\"messages\":[" + user("a") + "," + calls + "," + c1 + "," + user("b") + "]}").statusCode(400)
                .body("error.type", equalTo("invalid_request_error"))
                .body("error.param", equalTo("messages.[1].role"))
                .body("error.message", startsWith("An assistant message with 'tool_calls' must be followed by tool messages"))
                .body("error.message", org.hamcrest.Matchers.endsWith("did not have response messages: c2"));
        post("{\"messages\":[" + user("a") + "," + calls + "," + user("b") + "," + c1 + "," + c2 + "]}").statusCode(400)
                .body("error.message", org.hamcrest.Matchers.endsWith("c1, c2"));
        post("{\"messages\":[" + user("a") + "," + calls + "," + c2 + "," + c1 + "," + user("b") + "]}").statusCode(200);
    }

    @Test
    void contentPartsAndOtherRolesAreAccepted() {
        post("{\"messages\":[{\"role\":\"developer\",\"content\":\"be nice\"},"
                + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"hello \"},{\"type\":\"text\",\"text\":\"parts\"}]}]}")
                .statusCode(200)
                .body("model", equalTo("conduit-simulator"))
                .body("choices[0].message.content", equalTo("This is the Conduit simulator, not a real model. You said: hello parts"));
    }

    @Test
    void listsItsModel() {
        given().when().get("/simulator/v1/models").then().statusCode(200).contentType("application/json")
                .body("object", equalTo("list"))
                .body("data[0].id", equalTo("conduit-simulator"))
                .body("data[0].object", equalTo("model"));
    }
}
