package io.conduit.completions;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;

import io.conduit.EmptyMessages;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through OpenAI's chat completions: a newest user message with nothing in it, in each shape, is refused in
 * OpenAI's error shape (400 {@code invalid_request_error}, {@code invalid_value}, naming the message by its index in
 * the request) before anything is written, streamed or not, in a conversation or not; the conversation's next good
 * message is answered.
 */
@QuarkusTest
class EmptyMessagesOverCompletionsTest {

    private static RequestSpecification post(String thread) {
        RequestSpecification r = given().contentType("application/json");
        return thread == null ? r : r.header("X-Conduit-Thread", thread);
    }

    private static String body(boolean stream, String... messages) {
        return "{\"model\":\"agent\",\"stream\":" + stream + ",\"messages\":[" + String.join(",", messages) + "]}";
    }

    private static long threads() {
        return Long.parseLong(given().contentType("application/json").body("{}").when().post("/threads/count").then().statusCode(200).extract().asString().trim());
    }

    private static void refused(String thread, String body, String param) {
        post(thread).body(body).when().post("/v1/chat/completions").then().statusCode(400).contentType("application/json")
                .body("error.type", equalTo("invalid_request_error")).body("error.code", equalTo("invalid_value"))
                .body("error.param", equalTo(param));
    }

    @Test
    void anEmptyNewestMessageIsRefusedInOpenAisShapeAndWritesNothing() {
        String thread = "completions-empty-" + UUID.randomUUID();
        long before = threads();
        for (String m : EmptyMessages.USER_MESSAGES) {
            if (m.contains("\"type\":\"human\"")) {
                m = m.replace("\"type\":\"human\"", "\"role\":\"user\""); // OpenAI's shape has roles only
            }
            for (boolean stream : new boolean[]{false, true}) {
                refused(thread, body(stream, m), "messages[0].content");
                refused(thread, body(stream, "{\"role\":\"system\",\"content\":\"be brief\"}", m), "messages[1].content");
                refused(null, body(stream, m), "messages[0].content");
            }
        }
        given().when().get("/threads/{t}", thread).then().statusCode(404);
        assertThat(threads()).isEqualTo(before);
        post(thread).body(body(false, "{\"role\":\"user\",\"content\":\"hello there\"}")).when().post("/v1/chat/completions")
                .then().statusCode(200).body("choices[0].message.content", endsWith("You said: hello there"));
        // in the conversation that now exists: no run is added for an empty message, and the next one is answered
        for (String m : EmptyMessages.USER_MESSAGES.subList(0, 3)) {
            refused(thread, body(false, m), "messages[0].content");
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
        post(thread).body(body(false, "{\"role\":\"user\",\"content\":\"and again\"}")).when().post("/v1/chat/completions")
                .then().statusCode(200).body("choices[0].message.content", endsWith("You said: and again"));
    }
}
