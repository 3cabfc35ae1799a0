package io.conduit.blueprints.assistant;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.conduit.runs.events.Collecting;
import io.conduit.runs.events.RunEvent;
import io.conduit.stream.ProtocolEventLogs;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The assistant blueprint end to end over the Agent Server API: LangChain4j over HTTP to the simulator (a script of
 * its own, src/test/resources/assistant/script.json), the blueprint's tools, memories in Postgres. What each model
 * call received is read from the run's {@code events} stream (the model call's start carries its messages), so the
 * pre-model hooks' work is checked where the model sees it.
 */
@QuarkusTest
@TestProfile(AssistantOnSimulatorTest.Script.class)
class AssistantOnSimulatorTest {

    public static class Script implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // small limits, so the hooks' cutting and trimming show in a test's few turns
            return Map.of("conduit.simulator.script", Path.of("src", "test", "resources", "assistant", "script.json").toAbsolutePath().toString(),
                    "conduit.blueprints.assistant.context-token-budget", "300",
                    "conduit.blueprints.assistant.max-model-message-chars", "3000");
        }
    }

    record Sse(String event, JsonNode data) {
    }

    @Inject
    ProtocolEventLogs protocol;

    /** The thread protocol's events the thread's log holds (what a protocol client replaying the thread gets). */
    private List<RunEvent> protocolLog(String thread) {
        List<RunEvent> out = new ArrayList<>();
        protocol.find(thread).subscribeThread(-1L, Collecting.into(out)).cancel();
        return out;
    }

    @Test
    void aMemoryWrittenInOneThreadIsRecalledInAnotherThreadOfTheSameUserAndNotOfAnother() throws IOException {
        String ada = "ada-" + UUID.randomUUID();
        String bob = "bob-" + UUID.randomUUID();

        JsonNode first = finalValues(run(newThread(), ada, "Please remember that my favourite colour is green", Map.of(), false));
        assertThat(toolResults(first, "add_memory")).singleElement().asString().contains("my favourite colour is green");

        List<Sse> recalled = run(newThread(), ada, "What do you know about me?", Map.of("timezone", "Asia/Tokyo"), false);
        assertThat(toolResults(finalValues(recalled), "search_memory")).singleElement().asString().contains("my favourite colour is green");
        // the pre-model hooks: the supervisor's first call got the system prompt with the user's time and memories
        JsonNode prompt = firstModelInput(recalled, "supervisor").get(0);
        assertThat(prompt.get("type").asText()).isEqualTo("system");
        assertThat(prompt.get("content").asText())
                .contains("Current date and time: ").contains("(Asia/Tokyo, UTC+09:00)")
                .contains("What you remember about the user:").contains("my favourite colour is green");

        List<Sse> other = run(newThread(), bob, "What do you know about me?", Map.of(), false);
        assertThat(toolResults(finalValues(other), "search_memory")).containsExactly("no memories match");
        String bobsPrompt = firstModelInput(other, "supervisor").get(0).get("content").asText();
        assertThat(bobsPrompt).doesNotContain("green").doesNotContain("What you remember").contains("(UTC)");
    }

    @Test
    void theHooksCutAnOversizedQuestionAndLeaveOlderTurnsOutPastTheTokenBudget() throws IOException {
        String user = "eve-" + UUID.randomUUID();
        String essay = "Here is my essay: " + "word ".repeat(800) + "end";
        List<Sse> cut = run(newThread(), user, essay, Map.of(), false);
        JsonNode got = firstModelInput(cut, "supervisor");
        String question = got.get(got.size() - 1).get("content").asText();
        assertThat(question).startsWith("Here is my essay: word").endsWith("[cut: the rest was too long to send]");
        assertThat(question.length()).isLessThan(essay.length());
        // the thread keeps what the user sent
        assertThat(finalValues(cut).get("messages").get(0).get("content").asText()).isEqualTo(essay);

        String thread = newThread();
        run(thread, user, "Here is a medium note: " + "note ".repeat(240) + "end", Map.of(), false);
        List<Sse> second = run(thread, user, "Hello again", Map.of(), false);
        // about 300 tokens of the first turn do not fit the budget of 300 beside the system prompt: only this turn goes
        JsonNode sent = firstModelInput(second, "supervisor");
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).get("type").asText()).isEqualTo("system");
        assertThat(sent.get(1).get("content").asText()).isEqualTo("Hello again");
        assertThat(finalValues(second).get("messages")).hasSize(4);
    }

    @Test
    void followUpSuggestionsFromTheCheapModelArriveAsACustomEventAndStayInState() throws IOException {
        List<Sse> events = run(newThread(), "sue-" + UUID.randomUUID(), "Hello there", Map.of(), false);

        List<JsonNode> suggestions = events.stream().filter(e -> e.event().equals("custom") && e.data().get("name").asText().equals("suggestions"))
                .map(Sse::data).toList();
        assertThat(suggestions).singleElement().satisfies(s -> assertThat(texts(s.get("data").get("questions"))).containsExactly(
                "What else do you remember about me?", "Can the researcher look into it further?", "What time is it where I am?"));
        assertThat(texts(finalValues(events).get("suggestions").get("questions"))).hasSize(3);
        // the suggestions are bookkeeping: announced as a model call, never streamed as a message
        assertThat(events.stream().filter(e -> e.event().equals("messages") && e.data().get(1).path("langgraph_node").asText().equals("follow_up"))).isEmpty();
        assertThat(finalValues(events).get("messages")).hasSize(2);

        List<Sse> off = run(newThread(), "sue-" + UUID.randomUUID(), "Hello again", Map.of("suggestions", false), false);
        assertThat(off.stream().filter(e -> e.event().equals("custom") && e.data().get("name").asText().equals("suggestions"))).isEmpty();
    }

    @Test
    void aHandoffStreamsTheSubAgentsTokensInItsNamespaceAndReturnsOnlyItsReport() throws IOException {
        String carol = "carol-" + UUID.randomUUID();
        String thread = newThread();
        List<Sse> events = run(thread, carol, "Please ask the researcher about my favourite colour", Map.of(), true);

        String report = "Research report: I searched the memories for my favourite colour and checked the clock.";
        List<Sse> subTokens = events.stream().filter(e -> e.event().startsWith("messages|researcher:")).toList();
        assertThat(subTokens).isNotEmpty();
        assertThat(subTokens.stream().map(Sse::event).distinct()).hasSize(1);
        assertThat(streamedText(subTokens)).isEqualTo(report);
        assertThat(subTokens).filteredOn(e -> e.data().get(0).get("type").asText().equals("AIMessageChunk"))
                .allSatisfy(e -> assertThat(e.data().get(1).get("langgraph_node").asText()).isEqualTo("agent"));
        // the supervisor's own answer streams at the root, and none of the researcher's words do
        List<Sse> rootTokens = events.stream().filter(e -> e.event().equals("messages")).toList();
        assertThat(streamedText(rootTokens)).contains("The researcher has reported back on my favourite colour").doesNotContain("Research report");

        JsonNode values = finalValues(events);
        assertThat(values.get("messages")).hasSize(4); // the question, the handoff call, its report, the answer
        assertThat(toolResults(values, "handoff")).containsExactly(report);
        assertThat(values.get("usage").get("calls").asInt()).isEqualTo(5); // supervisor twice, researcher twice, follow-up
        // the thread records its graph: its state reads with the assistant's schema
        JsonNode state = tree(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
        assertThat(state.get("values").get("messages")).hasSize(4);
        assertThat(state.get("values").get("suggestions").get("questions")).hasSize(3);

        // the end of the researcher's run kept its procedure as a skill of this user, and its next prompt shows it
        assertThat(events.stream().filter(e -> e.event().startsWith("custom|researcher:") && e.data().get("name").asText().equals("skill_saved")))
                .singleElement().satisfies(e -> assertThat(e.data().get("data").get("skill").asText()).contains("call search_memory, then get_current_time"));
        // the thread protocol: the same custom events on their custom:<name> channels, the skill in the researcher's namespace
        List<RunEvent> protocolEvents = protocolLog(thread);
        assertThat(protocolEvents).filteredOn(e -> e.mode().equals("custom:skill_saved"))
                .singleElement().satisfies(e -> assertThat(e.ns()).startsWith("researcher:"));
        assertThat(protocolEvents).filteredOn(e -> e.mode().equals("custom:suggestions")).singleElement().satisfies(e -> {
            assertThat(e.ns()).isEmpty();
            assertThat(tree(e.data()).get("params").get("data").get("payload").get("questions")).hasSize(3);
        });
        assertThat(protocolEvents).anyMatch(e -> e.mode().equals("messages") && e.ns().startsWith("researcher:") && e.ns().contains("|agent:"));

        List<Sse> again = run(newThread(), carol, "Please ask the researcher about my plans", Map.of(), true);
        assertThat(firstModelInput(again, "agent").get(0).get("content").asText())
                .contains("A procedure that worked before: for a task like \"Research my favourite colour\"");
    }

    @Test
    void aHandoffToAnUnknownSubAgentIsAnErrorTheModelReads() throws IOException {
        JsonNode values = finalValues(run(newThread(), "dan-" + UUID.randomUUID(), "Please ask the intern about taxes", Map.of(), true));

        assertThat(toolResults(values, "handoff")).singleElement().asString().contains("there is no sub-agent named intern");
        assertThat(values.get("messages").get(2).get("status").asText()).isEqualTo("error");
    }

    @Test
    void aBadTimeZoneIsRefusedBeforeAnythingRuns() {
        String thread = newThread();
        given().contentType("application/json").body(body("hi", Map.of("user_id", "x", "timezone", "Mars/Olympus"), false, List.of("values")))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(422).body("detail", org.hamcrest.Matchers.containsString("Mars/Olympus"));
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(0));
    }

    @Test
    void theAssistantIsListedBesideTheDefaultOne() {
        given().contentType("application/json").body(Map.of("graph_id", "assistant")).when().post("/assistants/search")
                .then().statusCode(200).body("graph_id", org.hamcrest.Matchers.hasItem("assistant"));
    }

    // ---- helpers

    private static String newThread() {
        String id = "assistant-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", id)).when().post("/threads").then().statusCode(200);
        return id;
    }

    private static Map<String, Object> body(String text, Map<String, Object> configurable, boolean subgraphs, List<String> modes) {
        Map<String, Object> body = new HashMap<>();
        body.put("assistant_id", "assistant");
        body.put("input", Map.of("messages", List.of(Map.of("role", "user", "content", text))));
        body.put("config", Map.of("configurable", configurable));
        body.put("stream_mode", modes);
        body.put("stream_subgraphs", subgraphs);
        return body;
    }

    private static List<Sse> run(String thread, String user, String text, Map<String, Object> settings, boolean subgraphs) throws IOException {
        Map<String, Object> configurable = new HashMap<>(settings);
        configurable.put("user_id", user);
        String sse = given().contentType("application/json")
                .body(body(text, configurable, subgraphs, List.of("values", "messages-tuple", "custom", "events")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<Sse> out = new ArrayList<>();
        for (String frame : sse.split("\n\n")) {
            String event = null;
            String data = null;
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                }
            }
            if (event != null) {
                out.add(new Sse(event, JsonCodec.MAPPER.readTree(data)));
            }
        }
        assertThat(out).as("events of the run").isNotEmpty();
        assertThat(out.get(out.size() - 1).event()).isEqualTo("end");
        assertThat(out).noneMatch(e -> e.event().equals("error"));
        return out;
    }

    /** The root graph's last values. */
    private static JsonNode finalValues(List<Sse> events) {
        return events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
    }

    /** The contents of the tool messages of one tool, in order. */
    private static List<String> toolResults(JsonNode values, String tool) {
        return StreamSupport.stream(values.get("messages").spliterator(), false)
                .filter(m -> m.get("type").asText().equals("tool") && m.get("name").asText().equals(tool))
                .map(m -> m.get("content").asText()).toList();
    }

    /** The messages the first model call of a node received (its chat model start event). */
    private static JsonNode firstModelInput(List<Sse> events, String node) {
        return events.stream().filter(e -> e.event().startsWith("events") && e.data().get("event").asText().equals("on_chat_model_start")
                        && e.data().get("metadata").get("langgraph_node").asText().equals(node))
                .findFirst().orElseThrow(() -> new AssertionError("no model call of " + node)).data().get("data").get("input").get("messages");
    }

    private static String streamedText(List<Sse> messageEvents) {
        StringBuilder sb = new StringBuilder();
        messageEvents.stream().filter(e -> e.data().get(0).path("type").asText().equals("AIMessageChunk"))
                .forEach(e -> sb.append(e.data().get(0).path("content").asText()));
        return sb.toString();
    }

    private static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + json, e);
        }
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
