package io.conduit.a2a;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.NodeClient;
import io.conduit.api.PausingModel;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.Run;
import io.conduit.runs.RunStatus;
import io.conduit.runs.RunStore;
import io.conduit.runs.graphs.GraphRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code tasks/resubscribe} with {@code @a2a-js/sdk}'s client (src/test/js/a2a-client.mjs, scenario
 * {@code resubscribe}): a streamed task whose client left its stream at the first token (the model then pauses for ten
 * minutes) is read again from its start, the task first and its first token once, and its cancellation, sent after
 * that token came on the new stream, ends the new stream live. Resubscribing to the task once it ended, and to a task
 * that does not exist, is refused with an error (-32004, -32001). A task that never begins here and is cancelled ends
 * its resubscription with the task from its record. The profile of the cancel tests, so Quarkus starts once for them.
 */
@QuarkusTest
@TestProfile(PausingModel.class)
class A2aResubscribeTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Inject
    RunStore runs;

    @Test
    void aTaskInFlightIsReadAgainFromItsStartAndFollowedLiveToItsEnd() throws Exception {
        // a guard against a hang, not a timing assertion: the model's next token is ten minutes away
        JsonNode r = NodeClient.run("a2a-client.mjs", 100, "http://localhost:" + port, "agent", "resubscribe");

        String task = r.get("taskId").asText();
        List<String> kinds = new ArrayList<>();
        r.get("events").forEach(e -> {
            kinds.add(e.get("kind").asText() + (e.hasNonNull("state") ? ":" + e.get("state").asText() : ""));
            assertThat(e.get("taskId").asText()).isEqualTo(task);
        });
        assertThat(kinds).as("the task from its start, then its end").containsExactly(
                "task:submitted", "statusUpdate:working", "artifactUpdate", "statusUpdate:canceled");
        assertThat(r.get("events").get(2).get("append").asBoolean()).as("the first chunk replaces, not appends").isFalse();
        assertThat(r.get("text").asText()).as("the artifact rebuilt from the new stream").isEqualTo(r.get("firstText").asText())
                .isNotEmpty();

        assertThat(r.get("ended").get("message").asText()).as("resubscribing to the ended task")
                .contains("terminal state (canceled)");
        assertThat(r.get("unknown").get("message").asText()).as("resubscribing to an unknown task").contains("Task not found");
        assertThat(resubscribe(task).get("error").get("code").asInt()).as("the ended task: unsupported operation").isEqualTo(-32004);
        assertThat(resubscribe("no-such-task").get("error").get("code").asInt()).as("task not found").isEqualTo(-32001);
    }

    /**
     * A task this process holds no events of (its record written straight to the store, not due for an hour, so no
     * worker takes it) is cancelled while a client is resubscribed to it: it never begins, and the stream ends with the
     * task as its record has it.
     */
    @Test
    void aTaskCancelledBeforeItBeganEndsItsResubscriptionWithTheTaskFromItsRecord() throws Exception {
        String thread = given().contentType("application/json").body("{}").when().post("/threads").then().statusCode(200)
                .extract().path("thread_id");
        Instant now = Instant.now();
        Run run = runs.create(new Run(UUID.randomUUID().toString(), thread, GraphRegistry.assistantId("agent"), RunStatus.PENDING,
                null, null, null, now, now, now.plus(Duration.ofHours(1)), null)).await().indefinitely();

        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/a2a/agent")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(call(run.runId()))).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(stream.headers().firstValue("Content-Type").orElse("")).as("the head: the task is followed").startsWith("text/event-stream");
        assertThat(runs.cancelPending(run.runId(), Instant.now()).await().indefinitely()).isTrue();

        // to the stream's end; the bound is a guard against a hang, not a timing assertion
        List<String> data = CompletableFuture.supplyAsync(() -> stream.body().filter(l -> l.startsWith("data: ")).toList())
                .get(60, TimeUnit.SECONDS);
        assertThat(data).hasSize(1);
        JsonNode event = JsonCodec.MAPPER.readTree(data.getFirst().substring(6));
        assertThat(event.get("id").asInt()).isEqualTo(9);
        assertThat(event.get("result").get("kind").asText()).isEqualTo("task");
        assertThat(event.get("result").get("id").asText()).isEqualTo(run.runId());
        assertThat(event.get("result").get("status").get("state").asText()).isEqualTo("canceled");
    }

    private static String call(String taskId) {
        return "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"" + taskId + "\"}}";
    }

    /** A refused resubscription: a JSON-RPC error object. */
    private static JsonNode resubscribe(String taskId) throws Exception {
        return JsonCodec.MAPPER.readTree(given().contentType("application/json").body(call(taskId)).when().post("/a2a/agent")
                .then().statusCode(200).extract().asString());
    }
}
