package io.conduit.api;

import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.tree;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.EmptyMessages;
import io.conduit.agent.AgentState;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.Update;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: an empty user message, whichever shape it comes in, is refused by every Agent Server door that writes
 * messages (422 {@code invalid_input}, naming the field) with nothing written, and the thread takes a good turn
 * after; a thread whose stored history holds a message the agent cannot use (as an older version wrote them) still
 * answers its next turn.
 */
@QuarkusTest
class EmptyMessagesTest {

    private static final List<String> THREAD_RUNS = List.of("/runs", "/runs/stream", "/runs/wait");

    @Inject
    CompiledGraph agent;

    private static String body(String input, String... more) {
        StringBuilder b = new StringBuilder("{\"assistant_id\":\"agent\",\"input\":").append(input);
        for (int i = 0; i < more.length; i += 2) {
            b.append(",\"").append(more[i]).append("\":\"").append(more[i + 1]).append('"');
        }
        return b.append('}').toString();
    }

    private static long threads() {
        return Long.parseLong(given().contentType("application/json").body("{}").when().post("/threads/count")
                .then().statusCode(200).extract().asString().trim());
    }

    private static int runs(String thread) {
        return given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().path("size()");
    }

    /** A good turn on the thread: it ends {@code success} and the model answered this message. */
    private static void answersAGoodTurn(String thread, String text) {
        JsonNode values = tree(given().contentType("application/json").body(body("{\"messages\":[{\"role\":\"user\",\"content\":\"" + text + "\"}]}"))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200).extract().asString());
        assertThat(values.has("__error__")).as(values.toString()).isFalse();
        JsonNode messages = values.path("messages");
        JsonNode last = messages.get(messages.size() - 1);
        assertThat(last.path("type").asText()).as(values.toString()).isEqualTo("ai");
        assertThat(last.path("content").asText()).endsWith("You said: " + text);
        List<String> statuses = given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().path("status");
        assertThat(statuses.get(0)).isEqualTo("success");
    }

    @Test
    void anEmptyUserMessageIsRefusedByEveryRunEndpointAndWritesNothing() {
        String thread = newThread("empty");
        long before = threads();
        for (String input : EmptyMessages.inputs()) {
            for (String path : THREAD_RUNS) {
                given().contentType("application/json").body(body(input)).when().post("/threads/" + thread + path)
                        .then().statusCode(422).contentType(containsString("application/json"))
                        .body("code", equalTo("invalid_input")).body("detail", containsString("input.messages"));
            }
            for (String path : THREAD_RUNS) {
                given().contentType("application/json").body(body(input)).when().post(path)
                        .then().statusCode(422).body("code", equalTo("invalid_input")).body("detail", containsString("input.messages"));
            }
        }
        // nothing written: no run, no checkpoint, no binding of the thread to a graph, no temporary thread
        assertThat(runs(thread)).isZero();
        assertThat(checkpointRuns(thread)).isEmpty();
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", equalTo("idle")).body("metadata.size()", equalTo(0));
        assertThat(threads()).isEqualTo(before);
        answersAGoodTurn(thread, "hello after the refusals");
    }

    @Test
    void theMessageNamesWhatIsMissing() {
        String thread = newThread("empty-detail");
        given().contentType("application/json").body(body("{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"},{\"role\":\"user\",\"content\":\"\"}]}"))
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(422)
                .body("detail", containsString("input.messages[1].content")).body("detail", containsString("empty"));
        given().contentType("application/json").body(body("{\"messages\":[]}"))
                .when().post("/threads/{t}/runs", thread).then().statusCode(422).body("detail", containsString("user message"));
    }

    @Test
    void aThreadToBeCreatedForTheRunIsNotCreated() {
        for (String path : THREAD_RUNS) {
            String thread = "empty-new-" + UUID.randomUUID();
            given().contentType("application/json").body(body(EmptyMessages.inputs().get(0), "if_not_exists", "create"))
                    .when().post("/threads/" + thread + path).then().statusCode(422).body("code", equalTo("invalid_input"));
            given().when().get("/threads/{t}", thread).then().statusCode(404);
        }
    }

    @Test
    void aStateUpdateWithAnEmptyUserMessageIsRefusedAndWritesNothing() {
        String thread = newThread("empty-state");
        answersAGoodTurn(thread, "first");
        List<String> history = checkpointRuns(thread);
        for (String m : EmptyMessages.USER_MESSAGES) {
            given().contentType("application/json").body("{\"values\":{\"messages\":[" + m + "]}}").when().post("/threads/{t}/state", thread)
                    .then().statusCode(422).body("code", equalTo("invalid_input")).body("detail", containsString("values.messages[0].content"));
        }
        assertThat(checkpointRuns(thread)).isEqualTo(history);
        // a state update with a usable message is still written
        given().contentType("application/json").body("{\"values\":{\"messages\":[{\"role\":\"user\",\"content\":\"noted\"}]}}")
                .when().post("/threads/{t}/state", thread).then().statusCode(200);
        answersAGoodTurn(thread, "second");
    }

    @Test
    void aThreadCreatedWithSuperstepsHoldingAnEmptyMessageIsNotCreated() {
        long before = threads();
        for (String m : EmptyMessages.USER_MESSAGES) {
            String thread = "empty-supersteps-" + UUID.randomUUID();
            given().contentType("application/json").body("{\"thread_id\":\"" + thread + "\",\"supersteps\":[{\"updates\":[{\"values\":{\"messages\":["
                            + m + "]},\"as_node\":\"__start__\"}]}]}")
                    .when().post("/threads").then().statusCode(422).body("code", equalTo("invalid_input"))
                    .body("detail", containsString("supersteps[0].updates[0].values.messages[0].content"));
            given().when().get("/threads/{t}", thread).then().statusCode(404);
        }
        assertThat(threads()).isEqualTo(before);
    }

    @Test
    void aThreadCreatedWithSuperstepsHoldsTheirMessagesAndTakesTheNextTurn() {
        String thread = "supersteps-" + UUID.randomUUID();
        given().contentType("application/json").body("{\"thread_id\":\"" + thread + "\",\"supersteps\":["
                        + "{\"updates\":[{\"values\":{\"messages\":[{\"role\":\"user\",\"content\":\"an earlier question\"}]},\"as_node\":\"__start__\"}]},"
                        + "{\"updates\":[{\"values\":{\"messages\":[{\"role\":\"assistant\",\"content\":\"an earlier answer\"}]},\"as_node\":\"generator\"}]}]}")
                .when().post("/threads").then().statusCode(200).body("thread_id", equalTo(thread));
        assertThat(Api.contents(Api.state(thread).path("values"))).containsExactly("an earlier question", "an earlier answer");
        answersAGoodTurn(thread, "a new question");
        assertThat(Api.contents(Api.state(thread).path("values"))).startsWith("an earlier question", "an earlier answer", "a new question");
    }

    /**
     * Messages an older version could leave in a thread, written straight through the graph (no door checks them): each
     * on a thread of its own, after a first turn; the next turn is answered all the same.
     */
    @Test
    void aThreadWhoseHistoryHoldsAMessageTheAgentCannotUseStillAnswersTheNextTurn() {
        List<List<ChatMessage>> stored = List.of(
                List.of(new UserMessage("old-empty", "")),
                List.of(new UserMessage("old-null", null)),
                List.of(new UserMessage("old-blank", "  \n ")),
                List.of(new UserMessage("old-long", "x".repeat(9000))),
                List.of(new UserMessage("old-bell", "ring \u0007")),
                List.of(new UserMessage("old-first", ""), new AssistantMessage("old-answer", "", List.of(), null, null)),
                List.of(new AssistantMessage("old-silent", "", List.of(), null, null)));
        for (List<ChatMessage> messages : stored) {
            String thread = newThread("older");
            answersAGoodTurn(thread, "first");
            agent.updateState(thread, Update.none().add(AgentState.MESSAGES, messages), null, null).await().atMost(Duration.ofSeconds(10));
            answersAGoodTurn(thread, "and now");
            answersAGoodTurn(thread, "once more");
        }
    }

    @Test
    void aStatelessRunWithAnEmptyMessageLeavesNoThread() {
        long before = threads();
        given().contentType("application/json").body(body(EmptyMessages.inputs().get(0))).when().post("/runs/wait")
                .then().statusCode(422).body("code", equalTo("invalid_input"));
        assertThat(threads()).isEqualTo(before);
        JsonNode ok = tree(given().contentType("application/json").body(body("{\"messages\":[{\"role\":\"user\",\"content\":\"stateless hello\"}]}"))
                .when().post("/runs/wait").then().statusCode(200).extract().asString());
        assertThat(ok.has("__error__")).as(ok.toString()).isFalse();
    }
}
