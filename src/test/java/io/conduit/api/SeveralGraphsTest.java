package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.quarkus.arc.lookup.LookupIfProperty;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Two graphs served side by side: a thread records the graph of its first run, and its state, history, updates,
 * copies and the thread protocol's state commands read it with that graph's schema, not the default agent's.
 */
@QuarkusTest
@TestProfile(SeveralGraphsTest.WithNoteGraph.class)
class SeveralGraphsTest {

    static final LastValueChannel<String> NOTE = Channels.lastValue("note", String.class, "");
    static final LastValueChannel<Integer> LENGTH = Channels.lastValue("length", Integer.class, 0);

    public static class WithNoteGraph implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.test.note-graph", "true");
        }
    }

    /** A second graph with a state of its own (note, length), served only under this test's profile. */
    @Singleton
    public static class NoteGraph {
        @Produces
        @Singleton
        @LookupIfProperty(name = "conduit.test.note-graph", stringValue = "true")
        RegisteredGraph note(Checkpointer checkpointer) {
            return new RegisteredGraph("note", "Keeps a note and its length",
                    StateGraph.of(StateSchema.of(NOTE, LENGTH))
                            .node("measure", (s, ctx) -> Uni.createFrom().item(Update.of(LENGTH, s.get(NOTE).length())))
                            .edge(StateGraph.START, "measure").edge("measure", StateGraph.END)
                            .compile(GraphOptions.with(checkpointer)),
                    input -> { }, Map.of(), c -> null);
        }
    }

    @Test
    void bothSystemAssistantsAreListedAndCounted() {
        given().contentType("application/json").body("{}").post("/assistants/search").then().statusCode(200)
                .body("graph_id", hasItems("agent", "note"))
                .body("assistant_id", hasItems(GraphRegistry.assistantId("agent"), GraphRegistry.assistantId("note")));
        long count = Long.parseLong(given().contentType("application/json").body(Map.of("graph_id", "note")).post("/assistants/count")
                .then().statusCode(200).extract().asString());
        assertThat(count).isEqualTo(1);
    }

    @Test
    void aThreadIsReadWithTheGraphOfItsRuns() {
        String thread = Api.newThread("note");
        runWait(thread, Map.of("assistant_id", "note", "input", Map.of("note", "hello")));

        JsonNode thr = Api.tree(given().get("/threads/{t}", thread).then().statusCode(200).extract().asString());
        assertThat(thr.path("metadata").path("graph_id").asText()).isEqualTo("note");
        assertThat(thr.path("metadata").path("assistant_id").asText()).isEqualTo(GraphRegistry.assistantId("note"));
        assertThat(thr.path("values").path("length").asInt()).isEqualTo(5);

        JsonNode values = Api.state(thread).path("values");
        assertThat(values.path("note").asText()).isEqualTo("hello");
        assertThat(values.path("length").asInt()).isEqualTo(5);
        assertThat(values.has("messages")).isFalse();

        JsonNode history = Api.tree(given().contentType("application/json").body("{}").post("/threads/{t}/history", thread)
                .then().statusCode(200).extract().asString());
        assertThat(history.get(0).path("values").path("note").asText()).isEqualTo("hello");

        // an update in the note graph's channels, as its node
        given().contentType("application/json").body(Map.of("values", Map.of("note", "changed"), "as_node", "measure"))
                .post("/threads/{t}/state", thread).then().statusCode(200);
        assertThat(Api.state(thread).path("values").path("note").asText()).isEqualTo("changed");
        given().contentType("application/json").body(Map.of("values", Map.of("note", "x"), "as_node", "generator"))
                .post("/threads/{t}/state", thread).then().statusCode(422).body("detail", startsWith("as_node: the graph note has no node generator"));

        String copy = given().contentType("application/json").post("/threads/{t}/copy", thread).then().statusCode(200)
                .body("metadata.graph_id", equalTo("note")).body("values.note", equalTo("changed")).extract().path("thread_id");
        assertThat(Api.state(copy).path("values").path("note").asText()).isEqualTo("changed");

        JsonNode got = command(thread, "{\"id\":1,\"method\":\"state.get\",\"params\":{\"namespace\":[]}}");
        assertThat(got.path("result").path("values").path("note").asText()).isEqualTo("changed");
        JsonNode listed = command(thread, "{\"id\":2,\"method\":\"state.listCheckpoints\",\"params\":{}}");
        assertThat(listed.path("result").path("checkpoints").size()).isGreaterThanOrEqualTo(3);

        given().delete("/threads/{t}", copy).then().statusCode(204);
        given().get("/threads/{t}/state", copy).then().statusCode(404);
    }

    @Test
    void checkpointSourcesReachClientsByTheirLangGraphNames() {
        String thread = Api.newThread("note");
        runWait(thread, Map.of("assistant_id", "note", "input", Map.of("note", "hello")));
        given().contentType("application/json").body(Map.of("values", Map.of("note", "changed"), "as_node", "measure"))
                .post("/threads/{t}/state", thread).then().statusCode(200);
        String copy = given().contentType("application/json").post("/threads/{t}/copy", thread).then().statusCode(200)
                .extract().path("thread_id");

        List<String> history = given().contentType("application/json").body("{}").post("/threads/{t}/history", thread)
                .then().statusCode(200).extract().path("metadata.source");
        assertThat(history).containsExactly("update", "loop", "input");
        assertThat(Api.state(thread).path("metadata").path("source").asText()).isEqualTo("update");
        assertThat(Api.state(copy).path("metadata").path("source").asText()).isEqualTo("fork");
        JsonNode listed = command(thread, "{\"id\":1,\"method\":\"state.listCheckpoints\",\"params\":{}}").path("result").path("checkpoints");
        List<String> sources = new ArrayList<>();
        listed.forEach(c -> sources.add(c.path("source").asText()));
        assertThat(sources).containsExactly("update", "loop", "input");
    }

    @Test
    void aRunOfAnotherGraphOnABoundThreadIsRefused() {
        String thread = Api.newThread("note");
        runWait(thread, Map.of("assistant_id", "note", "input", Map.of("note", "hi")));
        given().contentType("application/json").body(Api.run("hello")).post("/threads/{t}/runs/wait", thread).then().statusCode(409)
                .body("code", equalTo("thread_graph_mismatch"))
                .body("detail", equalTo("Thread " + thread + " belongs to graph note; an assistant of graph agent cannot run on it. "
                        + "Start a new thread for graph agent."));
        assertThat(Api.state(thread).path("values").path("note").asText()).isEqualTo("hi");
    }

    @Test
    void aThreadWithoutRunsIsReadWithTheDefaultGraphUntilARunBindsIt() {
        String thread = Api.newThread("fresh");
        given().get("/threads/{t}", thread).then().statusCode(200).body("metadata", equalTo(Map.of()));
        given().get("/threads/{t}/state", thread).then().statusCode(200).body("checkpoint", equalTo(null));
        runWait(thread, Map.of("assistant_id", GraphRegistry.assistantId("note"), "input", Map.of("note", "bound")));
        given().get("/threads/{t}", thread).then().statusCode(200).body("metadata.graph_id", equalTo("note"));
        given().contentType("application/json").body(Api.run("hello")).post("/threads/{t}/runs", thread).then().statusCode(409);
    }

    @Test
    void ofSimultaneousFirstRunsOfTwoGraphsOnAFreshThreadOneBindsItAndTheOtherIsRefused() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 10; i++) {
            String thread = Api.newThread("race");
            // sent together: both requests find the thread unbound
            CompletableFuture<HttpResponse<String>> note = http.sendAsync(runRequest(thread, Map.of("assistant_id", "note",
                    "input", Map.of("note", "n"))), HttpResponse.BodyHandlers.ofString());
            CompletableFuture<HttpResponse<String>> agent = http.sendAsync(runRequest(thread, Api.run("hello")),
                    HttpResponse.BodyHandlers.ofString());
            List<HttpResponse<String>> both = List.of(note.get(), agent.get());
            assertThat(both.stream().map(HttpResponse::statusCode)).as("%s: %s", thread, both.stream().map(HttpResponse::body).toList())
                    .containsExactlyInAnyOrder(200, 409);
            HttpResponse<String> refused = both.stream().filter(r -> r.statusCode() == 409).findFirst().orElseThrow();
            assertThat(Api.tree(refused.body()).path("code").asText()).isEqualTo("thread_graph_mismatch");
            given().get("/threads/{t}", thread).then().statusCode(200)
                    .body("metadata.graph_id", equalTo(refused == note.get() ? "agent" : "note"));
        }
    }

    private static HttpRequest runRequest(String thread, Map<String, Object> body) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/threads/" + thread + "/runs"))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(Api.json(body))).build();
    }

    @Test
    void aStatelessRunRecordsItsGraphOnItsTemporaryThread() {
        given().contentType("application/json").body(Map.of("assistant_id", "note", "input", Map.of("note", "abc")))
                .post("/runs/wait").then().statusCode(200).body("length", equalTo(3));
    }

    private static void runWait(String thread, Map<String, Object> body) {
        given().contentType("application/json").body(body).post("/threads/{t}/runs/wait", thread).then().statusCode(200);
    }

    private static JsonNode command(String thread, String json) {
        return Api.tree(given().contentType("application/json").body(json).post("/threads/{t}/commands", thread)
                .then().statusCode(200).extract().asString());
    }
}
