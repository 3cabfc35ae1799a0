package io.conduit.runs.graphs;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.conduit.EmptyMessages;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: a run's input is checked against its graph before anything is written, for every served graph. A field
 * the graph does not take, an input without what the graph needs, and (for the graphs that hold a conversation) a user
 * message with nothing in it are 422 {@code invalid_input} naming the field, with no run, checkpoint or binding
 * written. The {@code request} blueprint given chat messages ran on an empty request before (42 model calls).
 */
@QuarkusTest
class GraphInputsTest {

    @Inject
    GraphRegistry graphs;

    private static String newThread() {
        String id = "inputs-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", id)).when().post("/threads").then().statusCode(200);
        return id;
    }

    /** Refused on each run endpoint with 422 naming {@code field}; the thread is left as it was. */
    private static void refused(String graph, String input, String field) {
        String thread = newThread();
        String body = "{\"assistant_id\":\"" + graph + "\",\"input\":" + input + "}";
        for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait", "/runs/wait")) {
            given().contentType("application/json").body(body).when().post(path).then().statusCode(422)
                    .body("code", equalTo("invalid_input")).body("detail", containsString(field));
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
        given().contentType("application/json").body("{}").when().post("/threads/{t}/history", thread).then().statusCode(200).body("size()", equalTo(0));
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("metadata.size()", equalTo(0));
    }

    @Test
    void everyGraphRefusesAFieldItDoesNotTakeAndAnInputWithoutWhatItNeeds() {
        assertThat(graphs.all()).extracting(RegisteredGraph::graphId).contains("agent", "assistant", "analyst", "request", "tutor");
        for (RegisteredGraph g : graphs.all()) {
            refused(g.graphId(), "{\"no_such_field\":1}", "input.no_such_field");
            refused(g.graphId(), "{}", "input.");
        }
    }

    /** An empty input beside a command is no input (useStream sends one; {@code LangGraphSdkGapsTest} resumes so). */
    @Test
    void anInputBesideACommandIsRefused() {
        String thread = newThread();
        given().contentType("application/json")
                .body("{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]},\"command\":{\"resume\":\"x\"}}")
                .when().post("/threads/{t}/runs/wait", thread).then().statusCode(422)
                .body("code", equalTo("invalid_input")).body("detail", containsString("an input or a command, not both"));
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void theRequestBlueprintGivenChatMessagesIsRefusedNamingTheField() {
        refused("request", "{\"messages\":[{\"role\":\"user\",\"content\":\"sum the numbers 1 2 3\"}]}", "input.messages");
        refused("request", "{\"input\":{}}", "input.input.message");
        refused("request", "{\"input\":{\"message\":\"   \"}}", "input.input.message");
    }

    @Test
    void theChatGraphsRefuseTheRequestBlueprintsShapeAndTheirOwnStateFields() {
        for (String graph : List.of("agent", "assistant", "analyst", "tutor")) {
            refused(graph, "{\"input\":{\"message\":\"hi\"}}", "input.input");
            refused(graph, "{\"message\":\"hi\"}", "input.message");
        }
        refused("agent", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"phase\":\"answered\"}", "input.phase");
        refused("assistant", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"suggestions\":{}}", "input.suggestions");
        refused("analyst", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"iterations\":3}", "input.iterations");
        refused("tutor", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"difficulty\":\"easy\"}", "input.difficulty");
    }

    @Test
    void everyChatGraphRefusesAnEmptyUserMessage() {
        for (String graph : List.of("agent", "assistant", "analyst", "tutor")) {
            for (String input : EmptyMessages.inputs()) {
                refused(graph, input, "input.messages");
            }
        }
    }
}
