package io.conduit.a2a;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.graphs.GraphRegistry;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The A2A front door judged by {@code @a2a-js/sdk}'s own client (src/test/js/a2a-client.mjs, A2A v0.3 JSON-RPC):
 * the agent card, a message sent and answered as a completed task, a message streamed on the same context (the
 * task, {@code working}, the answer's tokens as artifact updates, {@code completed} last), the conversation kept in
 * the context's thread, a task read back; bad requests answered with JSON-RPC error objects. Run on each store.
 */
abstract class A2aClientContract {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    void anA2aClientTalksToAnAssistantStreamedOrNotOnOneContextAndReadsItsTasks() throws Exception {
        JsonNode r = NodeClient.run("a2a-client.mjs", 120, "http://localhost:" + port, "agent");
        String assistantId = GraphRegistry.assistantId("agent");

        JsonNode card = r.get("rawCard");
        assertThat(card.get("protocolVersion").asText()).isEqualTo("0.3.0");
        assertThat(card.get("url").asText()).isEqualTo("http://localhost:" + port + "/a2a/" + assistantId);
        assertThat(card.get("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(card.get("capabilities").get("streaming").asBoolean()).isTrue();
        assertThat(card.get("skills")).hasSize(1);
        assertThat(r.get("card").get("streaming").asBoolean()).isTrue();

        JsonNode first = r.get("first");
        assertThat(first.get("state").asText()).isEqualTo("completed");
        assertThat(first.get("statusText").asText()).endsWith("You said: hello over a2a");
        JsonNode artifacts = first.get("artifacts");
        assertThat(artifacts).isNotEmpty();
        assertThat(artifacts.get(artifacts.size() - 1).get("text").asText()).isEqualTo(first.get("statusText").asText());
        String context = first.get("contextId").asText();

        // the stream: the task first, then working, the tokens as they came, completed last; all of one new task
        List<String> kinds = new ArrayList<>();
        r.get("events").forEach(e -> kinds.add(e.get("kind").asText() + (e.hasNonNull("state") ? ":" + e.get("state").asText() : "")));
        assertThat(kinds.get(0)).isEqualTo("task:submitted");
        assertThat(kinds.get(1)).isEqualTo("statusUpdate:working");
        assertThat(kinds.get(kinds.size() - 1)).isEqualTo("statusUpdate:completed");
        assertThat(kinds.subList(2, kinds.size() - 1)).allMatch(k -> k.equals("artifactUpdate")).hasSizeGreaterThan(1);
        String streamedTask = r.get("events").get(0).get("taskId").asText();
        assertThat(streamedTask).isNotEqualTo(first.get("id").asText());
        r.get("events").forEach(e -> {
            assertThat(e.get("contextId").asText()).isEqualTo(context);
            assertThat(e.get("taskId").asText()).isEqualTo(streamedTask);
        });
        assertThat(r.get("streamedText").asText()).endsWith("You said: and streamed");

        // the context is one thread, holding both turns
        JsonNode state = JsonCodec.MAPPER.readTree(given().when().get("/threads/{t}/state", context).then().statusCode(200).extract().asString());
        List<String> said = new ArrayList<>();
        state.get("values").get("messages").forEach(m -> said.add(m.get("type").asText() + ": " + m.get("content").asText()));
        assertThat(said).containsExactly("human: hello over a2a", "ai: " + first.get("statusText").asText(),
                "human: and streamed", "ai: " + r.get("streamedText").asText());

        JsonNode got = r.get("got");
        assertThat(got.get("id").asText()).isEqualTo(first.get("id").asText());
        assertThat(got.get("state").asText()).isEqualTo("completed");
        assertThat(got.get("artifacts")).isEqualTo(artifacts);
        assertThat(r.get("unknownTask").get("message").asText()).contains("Task not found");

        JsonNode errors = r.get("errors");
        assertError(errors.get("malformed"), -32700, null);
        assertError(errors.get("notAnObject"), -32600, null);
        assertError(errors.get("noVersion"), -32600, 2);
        assertError(errors.get("unknownMethod"), -32601, 3);
        assertThat(errors.get("noMessage").get("body").get("id").asText()).isEqualTo("four");
        assertThat(errors.get("noMessage").get("body").get("error").get("code").asInt()).isEqualTo(-32602);
        assertError(errors.get("badPart"), -32602, 5);
        assertError(errors.get("badRole"), -32602, 6);
        assertError(errors.get("noTaskId"), -32602, 7);
        assertError(errors.get("unknownTask"), -32001, 8);
        assertError(errors.get("endedTaskCancel"), -32002, 9);
        assertError(errors.get("unknownAssistant"), -32000, 10);
        assertThat(errors.get("unknownAssistant").get("body").get("error").get("message").asText()).isEqualTo("Assistant no-such-assistant not found");
        assertThat(errors.get("unknownCard").get("status").asInt()).isEqualTo(404);
        assertThat(errors.get("unknownCard").get("body").get("code").asText()).isEqualTo("assistant_not_found");
        errors.forEach(e -> assertThat(e.toString()).doesNotContain("Exception").doesNotContain("\tat "));
    }

    private static void assertError(JsonNode answer, int code, Integer id) {
        assertThat(answer.get("status").asInt()).as(answer.toString()).isEqualTo(200);
        JsonNode body = answer.get("body");
        assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(body.has("result")).isFalse();
        assertThat(body.get("error").get("code").asInt()).as(body.toString()).isEqualTo(code);
        assertThat(body.get("error").get("message").asText()).isNotBlank();
        if (id == null) {
            assertThat(body.get("id").isNull()).isTrue();
        } else {
            assertThat(body.get("id").asInt()).isEqualTo(id);
        }
    }
}
