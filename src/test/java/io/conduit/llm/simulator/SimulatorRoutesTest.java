package io.conduit.llm.simulator;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The simulator's answers and its errors, in OpenAI's shapes. */
@QuarkusTest
class SimulatorRoutesTest {

    @Test
    void aNonStreamedCompletion() {
        given().contentType("application/json").body("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"what time is it?\"}],"
                        + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_current_time\",\"parameters\":{\"type\":\"object\"}}}]}")
                .when().post("/simulator/v1/chat/completions")
                .then().statusCode(200)
                .body("object", equalTo("chat.completion"))
                .body("model", equalTo("m"))
                .body("choices[0].finish_reason", equalTo("tool_calls"))
                .body("choices[0].message.tool_calls[0].function.name", equalTo("get_current_time"))
                .body("choices[0].message.tool_calls[0].type", equalTo("function"));
    }

    @Test
    void badRequestsGetOpenAiShapedErrors() {
        given().contentType("application/json").body("{not json").when().post("/simulator/v1/chat/completions")
                .then().statusCode(400).body("error.code", equalTo("invalid_json")).body("error.type", equalTo("invalid_request_error"));
        given().contentType("application/json").body("{\"model\":\"m\"}").when().post("/simulator/v1/chat/completions")
                .then().statusCode(400).body("error.code", equalTo("missing_messages"));
        given().contentType("application/json").body("{\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}").when().post("/simulator/v1/chat/completions")
                .then().statusCode(400).body("error.code", equalTo("invalid_role")).body("error.message", startsWith("unknown role 'wizard'"));
    }

    @Test
    void listsItsModel() {
        given().when().get("/simulator/v1/models").then().statusCode(200).body("data[0].id", equalTo("conduit-simulator"));
    }
}
