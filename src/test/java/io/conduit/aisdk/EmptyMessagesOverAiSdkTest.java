package io.conduit.aisdk;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17 through the AI SDK's chat endpoint: a user message with no text (only blanks, or no text part) is refused
 * with 422 {@code invalid_input} before anything is written, whether the chat exists or not, and a good message after
 * is answered.
 */
@QuarkusTest
class EmptyMessagesOverAiSdkTest {

    /** The last UI message's body (its {@code parts}, or an older client's {@code content}) with nothing in it. */
    private static final List<String> EMPTY = List.of(
            "\"parts\":[{\"type\":\"text\",\"text\":\"\"}]",
            "\"parts\":[{\"type\":\"text\",\"text\":\"   \"}]",
            "\"parts\":[{\"type\":\"step-start\"},{\"type\":\"text\",\"text\":\" \\n\\t\"}]",
            "\"parts\":[{\"type\":\"text\",\"text\":\"\"},{\"type\":\"text\",\"text\":\" \"}]",
            "\"content\":\"  \"");

    private static String chat(String thread, String message) {
        return "{\"id\":\"" + thread + "\",\"trigger\":\"submit-message\",\"messages\":[{\"id\":\"m-" + UUID.randomUUID() + "\",\"role\":\"user\","
                + message + "}]}";
    }

    private static void answersAGoodMessage(String thread) {
        String body = given().contentType("application/json").body(chat(thread, "\"parts\":[{\"type\":\"text\",\"text\":\"hello there\"}]"))
                .when().post("/ai-sdk/chat").then().statusCode(200).extract().asString();
        assertThat(body).contains("\"type\":\"finish\"").doesNotContain("\"type\":\"error\"");
        // the stream ended with the run: the thread's newest message is the model's answer to this one
        java.util.List<String> contents = given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().path("values.messages.content");
        assertThat(contents.get(contents.size() - 1)).endsWith("You said: hello there");
    }

    @Test
    void anEmptyUserMessageIs422AndWritesNothing() {
        String thread = "aisdk-empty-" + UUID.randomUUID();
        for (String message : EMPTY) {
            given().contentType("application/json").body(chat(thread, message)).when().post("/ai-sdk/chat")
                    .then().statusCode(422).contentType(containsString("application/json"))
                    .body("code", equalTo("invalid_input")).body("detail", containsString("messages[0]"));
        }
        given().when().get("/threads/{t}", thread).then().statusCode(404);
        answersAGoodMessage(thread);
        for (String message : EMPTY) {
            given().contentType("application/json").body(chat(thread, message)).when().post("/ai-sdk/chat").then().statusCode(422);
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
        answersAGoodMessage(thread);
    }
}
