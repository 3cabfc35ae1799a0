package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.conduit.NodeClient;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RegisteredGraph;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /assistants/{id}/graph} as LangGraph Studio and the SDK's {@code getGraph} read it: nodes with START and
 * END, edges between them ({@code conditional} for a router's), and subgraphs drawn inside their nodes with
 * {@code xray}, their node ids prefixed with the node's name. The SDK's own {@code getGraph} reads it too
 * (src/test/js/assistant-graph-sdk.mjs, both SDK lines).
 */
@QuarkusTest
class AssistantGraphTest {

    private static final String START = "__start__";
    private static final String END = "__end__";

    @Inject
    GraphRegistry graphs;

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private static JsonNode graph(String assistant, String xray) throws Exception {
        var request = given();
        if (xray != null) {
            request = request.queryParam("xray", xray);
        }
        String body = request.when().get("/assistants/{id}/graph", assistant).then().statusCode(200).extract().asString();
        return new ObjectMapper().readTree(body);
    }

    private static List<String> ids(JsonNode graph) {
        List<String> ids = new ArrayList<>();
        graph.get("nodes").forEach(n -> ids.add(n.get("id").asText()));
        return ids;
    }

    /** Edges as "a -> b" (plain) or "a ?> b" (conditional). */
    private static List<String> edges(JsonNode graph) {
        List<String> out = new ArrayList<>();
        graph.get("edges").forEach(e -> out.add(e.get("source").asText() + (e.get("conditional").asBoolean() ? " ?> " : " -> ")
                + e.get("target").asText()));
        return out;
    }

    @Test
    void everyServedGraphsEdgesJoinItsNodesFromStartToEnd() throws Exception {
        assertThat(graphs.all()).hasSizeGreaterThan(1);
        for (RegisteredGraph g : graphs.all()) {
            String assistant = GraphRegistry.assistantId(g.graphId());
            for (String xray : new String[]{null, "true"}) {
                JsonNode graph = graph(assistant, xray);
                String which = g.graphId() + (xray == null ? "" : " with xray");
                List<String> ids = ids(graph);
                assertThat(new HashSet<>(ids)).as(which + ": node ids are unique").hasSameSizeAs(ids);
                assertThat(ids).as(which).startsWith(START).endsWith(END);
                Set<String> from = new HashSet<>();
                Set<String> to = new HashSet<>();
                for (JsonNode e : graph.get("edges")) {
                    assertThat(e.get("conditional").isBoolean()).as(which + ": conditional is a boolean in " + e).isTrue();
                    assertThat(e.has("data")).as(which + ": no label in " + e).isFalse();
                    assertThat(ids).as(which + ": the nodes hold the ends of " + e).contains(e.get("source").asText(), e.get("target").asText());
                    from.add(e.get("source").asText());
                    to.add(e.get("target").asText());
                }
                // every node is on a path from START to END, as a drawing shows it
                for (String id : ids) {
                    if (!id.equals(END)) {
                        assertThat(from).as(which + ": an edge leaves " + id).contains(id);
                    }
                    if (!id.equals(START)) {
                        assertThat(to).as(which + ": an edge reaches " + id).contains(id);
                    }
                }
                if (xray == null) {
                    List<String> expected = new ArrayList<>(List.of(START));
                    expected.addAll(g.graph().nodeNames());
                    expected.add(END);
                    assertThat(ids).as(which + ": the graph's own nodes").isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void theAgentsRoutersAreConditionalAndItsPlainEdgesNot() throws Exception {
        JsonNode agent = graph("agent", null);
        assertThat(edges(agent)).contains("__start__ -> ingress", "ingress ?> planner", "ingress ?> __end__",
                "planner ?> tool_executor", "tool_executor -> verifier", "verifier ?> planner");
        assertThat(agent.get("mermaid").asText()).contains("planner -.-> tool_executor;");
        assertThat(graph("agent", "true")).isEqualTo(agent); // it has no subgraph
    }

    @Test
    void xrayDrawsTheTutorsQuizInsideItsNode() throws Exception {
        JsonNode plain = graph("tutor", null);
        assertThat(ids(plain)).contains("test_session").noneMatch(id -> id.startsWith("test_session:"));
        assertThat(edges(plain)).contains("answer ?> test_session", "test_session -> __end__");

        JsonNode xray = graph("tutor", "true");
        List<String> ids = ids(xray);
        assertThat(ids).doesNotContain("test_session").contains("test_session:start_quiz", "test_session:judge_answer", "test_session:summarize")
                .doesNotContain("test_session:__start__", "test_session:__end__"); // the quiz starts and ends in one node each
        assertThat(edges(xray)).contains("answer ?> test_session:start_quiz", "test_session:summarize -> __end__",
                "test_session:start_quiz -> test_session:generate_queries", "test_session:judge_answer ?> test_session:present_question")
                .noneMatch(e -> e.contains("test_session ") || e.endsWith(" test_session"));
        for (JsonNode n : xray.get("nodes")) {
            assertThat(n.get("type").asText()).as(n.toString()).isEqualTo(n.get("id").asText().matches("__(start|end)__") ? "schema" : "runnable");
        }
        // the tutor's subgraphs are one level deep: xray=1 draws them all, as LangGraph reads a depth
        assertThat(graph(GraphRegistry.assistantId("tutor"), "1")).isEqualTo(xray);
        assertThat(graph("tutor", "True")).isEqualTo(xray);
        assertThat(graph("tutor", "false")).isEqualTo(plain);
    }

    @Test
    void anXrayLangGraphWouldRefuseIs422() {
        for (String bad : List.of("0", "-1", "yes", "1.5")) {
            given().queryParam("xray", bad).when().get("/assistants/tutor/graph").then().statusCode(422)
                    .body("code", equalTo("invalid_input")).body("detail", containsString("xray"));
        }
        given().queryParams(Map.of("xray", "2")).when().get("/assistants/tutor/graph").then().statusCode(200);
    }

    @Test
    void theSdksGetGraphReadsTheEdgesOnBothLines() throws Exception {
        // src/test/js/assistant-graph-sdk.mjs: the tutor with and without xray, the agent, a refused xray
        for (String sdk : List.of("@langchain/langgraph-sdk", "langgraph-sdk-2")) {
            JsonNode r = NodeClient.run("assistant-graph-sdk.mjs", 60, "http://localhost:" + port, sdk);
            assertThat(r.path("checks").asInt()).as(sdk + " checks").isGreaterThan(40);
            assertThat(r.path("xrayNodes").asInt()).as(sdk + ": the quiz's nodes replace its one node").isGreaterThan(r.path("nodes").asInt());
        }
    }
}
