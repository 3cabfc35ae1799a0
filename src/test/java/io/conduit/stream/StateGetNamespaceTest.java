package io.conduit.stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.Checkpointer;
import io.conduit.graph.Channels;
import io.conduit.graph.GraphOptions;
import io.conduit.graph.LastValueChannel;
import io.conduit.graph.StateGraph;
import io.conduit.graph.StateSchema;
import io.conduit.graph.Update;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.graphs.RegisteredGraph;
import io.quarkus.arc.lookup.LookupIfProperty;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code state.get} with a subgraph's namespace, as its events carry it: the subgraph's own state while the run is
 * paused inside it; a namespace where no subgraph ran is {@code no_such_namespace}; the root reads the parent's.
 */
@QuarkusTest
@TestProfile(StateGetNamespaceTest.WithReviewGraph.class)
class StateGetNamespaceTest {

    static final LastValueChannel<String> DRAFT = Channels.lastValue("draft", String.class, "");
    static final LastValueChannel<String> VERDICT = Channels.lastValue("verdict", String.class, "");

    public static class WithReviewGraph implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.test.review-graph", "true");
        }
    }

    /** review: a subgraph {@code check} that writes a draft, then asks for a verdict (an interrupt). */
    @Singleton
    public static class ReviewGraph {
        @Produces
        @Singleton
        @LookupIfProperty(name = "conduit.test.review-graph", stringValue = "true")
        RegisteredGraph review(Checkpointer checkpointer) {
            var check = StateGraph.of(StateSchema.of(DRAFT, VERDICT))
                    .node("write", (s, ctx) -> Uni.createFrom().item(Update.of(DRAFT, "draft of " + s.get(DRAFT))))
                    .node("ask", (s, ctx) -> Uni.createFrom().item(Update.of(VERDICT, ctx.interrupt("approve?", String.class))))
                    .edge(StateGraph.START, "write").edge("write", "ask").edge("ask", StateGraph.END)
                    .compile();
            return new RegisteredGraph("review", "A draft and a verdict on it",
                    StateGraph.of(StateSchema.of(DRAFT, VERDICT)).node("check", check)
                            .edge(StateGraph.START, "check").edge("check", StateGraph.END)
                            .compile(GraphOptions.with(checkpointer)),
                    input -> { }, Map.of(), c -> null);
        }
    }

    @Test
    void aSubgraphsNamespaceReadsItsOwnStateWhileTheRunIsPausedInIt() throws Exception {
        String thread = UUID.randomUUID().toString();
        given().contentType("application/json").body(Map.of("thread_id", thread)).post("/threads").then().statusCode(200);
        String sse = given().contentType("application/json")
                .body(Map.of("assistant_id", "review", "input", Map.of("draft", "a poem"), "stream_mode", List.of("updates"), "stream_subgraphs", true))
                .post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("event: updates\\|(check:[^\\n|]+)").matcher(sse);
        assertThat(m.find()).as(sse).isTrue();
        String ns = m.group(1);

        JsonNode inner = command(thread, "{\"id\":1,\"method\":\"state.get\",\"params\":{\"namespace\":[\"" + ns + "\"]}}");
        assertThat(inner.path("type").asText()).as(inner.toString()).isEqualTo("success");
        assertThat(inner.path("result").path("values").path("draft").asText()).isEqualTo("draft of a poem");
        assertThat(inner.path("result").path("checkpoint").path("ns").get(0).asText()).isEqualTo(ns);

        JsonNode root = command(thread, "{\"id\":2,\"method\":\"state.get\",\"params\":{\"namespace\":[]}}");
        assertThat(root.path("result").path("values").path("draft").asText()).isEqualTo("a poem"); // the subgraph has not returned yet
        assertThat(root.path("result").path("checkpoint").path("ns").size()).isZero();

        JsonNode none = command(thread, "{\"id\":3,\"method\":\"state.get\",\"params\":{\"namespace\":[\"check:no-such-task\"]}}");
        assertThat(none.path("type").asText()).isEqualTo("error");
        assertThat(none.path("error").asText()).isEqualTo("no_such_namespace");
        JsonNode bad = command(thread, "{\"id\":4,\"method\":\"state.get\",\"params\":{\"namespace\":\"check\"}}");
        assertThat(bad.path("error").asText()).isEqualTo("invalid_argument");
    }

    private static JsonNode command(String thread, String json) throws Exception {
        return JsonCodec.MAPPER.readTree(given().contentType("application/json").body(json).post("/threads/{t}/commands", thread)
                .then().statusCode(200).extract().asString());
    }
}
