package io.conduit.blueprints.tutor;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The tutor end to end over the HTTP API: LangChain4j over HTTP to the simulator (a script of the tutor's own), its
 * tools against a stub retrieval service started by the test, the Postgres checkpointer. The thread's state is read
 * from the runs' output ({@code runs/wait}) and from {@code /threads/{id}/state}, which reads a thread with the
 * schema of the graph it recorded at its first run.
 */
@QuarkusTest
@QuarkusTestResource(value = TutorTestResources.class, restrictToAnnotatedClass = true)
class TutorOnSimulatorTest {

    @Test
    void theTutorIsAnAssistantOfItsOwn() throws Exception {
        JsonNode found = json(given().contentType("application/json").body(Map.of("limit", 50)).when().post("/assistants/search")
                .then().statusCode(200).extract().asString());
        List<String> graphs = new ArrayList<>();
        found.forEach(a -> graphs.add(a.get("graph_id").asText()));
        assertThat(graphs).contains("agent", "tutor");
    }

    @Test
    void inputThatIsTheTutorsOwnStateIsRefusedBeforeAnythingIsWritten() throws Exception {
        String thread = thread();
        JsonNode refused = json(given().contentType("application/json").body(Map.of("assistant_id", "tutor", "input", Map.of(
                        "messages", List.of(Map.of("role", "user", "content", "hi")), "quiz", Map.of("status", "finished"))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(422).extract().asString());
        assertThat(refused.get("detail").asText()).contains("input.quiz");
        assertThat(json(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString())).isEmpty();
    }

    @Test
    void aBasicQuestionIsAnsweredFromTheCourseMaterialWithTheThreadsSubject() throws Exception {
        String thread = thread();
        int before = TutorTestResources.stub.searches().size();

        JsonNode values = wait(thread, Map.of("assistant_id", "tutor", "input", Map.of(
                "messages", List.of(Map.of("role", "user", "content", "What is photosynthesis?")), "subject", "biology")));

        assertThat(values.get("difficulty").asText()).isEqualTo("basic");
        assertThat(values.get("rated_by").asText()).isEqualTo("rules");
        assertThat(values.get("prompt").asText()).isEqualTo("basic");
        JsonNode messages = values.get("messages");
        assertThat(last(messages).get("content").asText()).isEqualTo("Photosynthesis is how plants turn light into sugar.");
        List<JsonNode> tools = ofType(messages, "tool");
        assertThat(tools).hasSize(2);
        assertThat(tools.get(0).get("content").asText()).contains("(chapter-3.pdf) Course notes on photosynthesis");
        assertThat(tools.get(1).get("content").asText()).isEqualTo("Guide for biology: start from what the student can observe.");
        // the model asked for chemistry: the subject is the thread's, whatever the model says
        JsonNode sent = TutorTestResources.stub.searches().get(before);
        assertThat(sent.get("subject").asText()).isEqualTo("biology");
        assertThat(sent.get("top_k").asInt()).isEqualTo(4);
        JsonNode passage = values.get("context").get(0);
        assertThat(passage.get("id").asText()).isEqualTo("p-photosynthesis");
        assertThat(passage.get("source").asText()).isEqualTo("chapter-3.pdf");
        assertThat(passage.get("score").asDouble()).isEqualTo(0.87);
        assertThat(passage.get("metadata").get("page").asInt()).isEqualTo(12);
        assertThat(passage.get("query").asText()).isEqualTo("photosynthesis");
    }

    @Test
    void anAdvancedAnswerStreamsItsThinkingAsReasoningAndKeepsItInState() throws Exception {
        String thread = thread();
        String body = given().contentType("application/json").body(Map.of("assistant_id", "tutor",
                        "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Why does light matter for photosynthesis?"))),
                        "stream_mode", List.of("values", "messages-tuple", "custom")))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(200).extract().asString();
        List<JsonNode[]> events = sse(body);

        StringBuilder reasoning = new StringBuilder();
        StringBuilder text = new StringBuilder();
        for (JsonNode[] e : events) {
            if (e[0].asText().equals("messages")) {
                JsonNode chunk = e[1].get(0);
                reasoning.append(chunk.path("additional_kwargs").path("reasoning_content").asText(""));
                text.append(chunk.path("content").asText(""));
            }
        }
        assertThat(reasoning.toString()).isEqualTo("The student asks why. Light supplies the energy that splits water.");
        assertThat(text.toString().strip()).isEqualTo("Because light provides the energy for the reaction.");
        assertThat(events.stream().anyMatch(e -> e[0].asText().equals("custom") && e[1].get("name").asText().equals("reasoning"))).isTrue();
        JsonNode values = events.stream().filter(e -> e[0].asText().equals("values")).reduce((a, b) -> b).orElseThrow()[1];
        assertThat(values.get("difficulty").asText()).isEqualTo("advanced");
        assertThat(values.get("prompt").asText()).isEqualTo("advanced_reasoning");
        assertThat(values.get("thinking").asText()).isEqualTo("The student asks why. Light supplies the energy that splits water.");
        JsonNode answer = last(values.get("messages"));
        assertThat(answer.get("content").asText()).isEqualTo("Because light provides the energy for the reaction.");
        assertThat(answer.get("additional_kwargs").get("reasoning_content").asText()).startsWith("The student asks why.");
    }

    @Test
    void aRetrievalServiceThatDoesNotAnswerInTimeBecomesAToolMessage() throws Exception {
        String thread = thread();
        JsonNode values = wait(thread, Map.of("assistant_id", "tutor", "input", Map.of(
                "messages", List.of(Map.of("role", "user", "content", "Please do a slow search")), "subject", "biology")));

        assertThat(values.has("__error__")).as("%s", values).isFalse();
        List<JsonNode> tools = ofType(values.get("messages"), "tool");
        assertThat(tools).singleElement().satisfies(t -> {
            assertThat(t.get("content").asText()).isEqualTo("retrieval timed out");
            assertThat(t.get("status").asText()).isEqualTo("error");
        });
        assertThat(values.get("rated_by").asText()).as("the rules cannot rate it: the model does").isEqualTo("model");
        assertThat(last(values.get("messages")).get("content").asText()).isEqualTo("I could not reach the course material just now.");
        assertThat(lastRunStatus(thread)).isEqualTo("success");
    }

    @Test
    void aThreeQuestionQuizPausesAtEachQuestionAndScoresTheAnswers() throws Exception {
        String thread = thread();
        JsonNode first = wait(thread, Map.of("assistant_id", "tutor", "input", Map.of(
                "messages", List.of(Map.of("role", "user", "content", "Quiz me on photosynthesis please")), "subject", "biology")));

        JsonNode q1 = question(first);
        assertThat(q1.get("action").asText()).isEqualTo("answer_question");
        assertThat(q1.get("question_num").asInt()).isEqualTo(1);
        assertThat(q1.get("total_questions").asInt()).isEqualTo(3);
        assertThat(q1.get("question_text").asText()).isEqualTo("Which pigment absorbs light in photosynthesis?");
        assertThat(q1.get("choices")).hasSize(4);
        assertThat(lastRunStatus(thread)).isEqualTo("interrupted");
        JsonNode paused = json(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
        assertThat(paused.get("values").get("subject").asText()).isEqualTo("biology");
        assertThat(paused.get("next").toString()).contains("test_session");
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("interrupted"));

        JsonNode q2 = question(wait(thread, Map.of("assistant_id", "tutor", "command", Map.of("resume", "A"))));
        assertThat(q2.get("question_num").asInt()).isEqualTo(2);
        assertThat(q2.get("question_text").asText()).isEqualTo("Which gas do plants take in for photosynthesis?");

        JsonNode q3 = question(wait(thread, Map.of("assistant_id", "tutor", "command", Map.of("resume", "A"))));
        assertThat(q3.get("question_num").asInt()).isEqualTo(3);

        // the last answer as a background run (POST /runs), its end read by joining it
        String runId = json(given().contentType("application/json")
                .body(Map.of("assistant_id", "tutor", "command", Map.of("resume", Map.of("answer", "Chloroplast"))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().asString()).get("run_id").asText();
        JsonNode done = json(given().when().get("/threads/{t}/runs/{r}/join", thread, runId).then().statusCode(200).extract().asString());

        assertThat(done.has("__interrupt__")).isFalse();
        JsonNode quiz = done.get("quiz");
        assertThat(quiz.get("status").asText()).isEqualTo("finished");
        assertThat(quiz.get("queries")).hasSize(3);
        List<Boolean> verdicts = new ArrayList<>();
        quiz.get("results").forEach(r -> verdicts.add(r.get("correct").asBoolean()));
        assertThat(verdicts).containsExactly(true, false, true);
        assertThat(quiz.get("results").get(0).get("feedback").asText()).isEqualTo("Checked against the course material.");
        assertThat(last(done.get("messages")).get("content").asText()).startsWith("Quiz on photosynthesis finished: you scored 2/3.");
        // the quiz's context came from three searches, with their metadata
        assertThat(done.get("context").findValuesAsText("query")).contains("photosynthesis pigments", "photosynthesis inputs", "photosynthesis in the cell");
        // the first questions did not pass the checks (two, not three): asked again once, within the budget
        List<String> stages = new ArrayList<>();
        done.get("llm_calls").forEach(c -> stages.add(c.get("stage").asText()));
        assertThat(stages.stream().filter("generate_questions"::equals)).hasSize(2);
        assertThat(stages.stream().filter("judge_answer"::equals)).hasSize(3);
        // the conversation holds the call, its answer, the questions and answers, and the summary
        List<JsonNode> tools = ofType(done.get("messages"), "tool");
        assertThat(tools).singleElement().satisfies(t -> assertThat(t.get("name").asText()).isEqualTo("generate_test"));
        JsonNode state = json(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
        assertThat(state.get("values").get("quiz").get("status").asText()).isEqualTo("finished");
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("idle"));
        assertThat(lastRunStatus(thread)).isEqualTo("success");
    }

    @Test
    void aStudentWhoLeavesAQuizForAnotherQuestionGetsAnAnswer() throws Exception {
        String thread = thread();
        question(wait(thread, Map.of("assistant_id", "tutor", "input", Map.of(
                "messages", List.of(Map.of("role", "user", "content", "Quiz me on photosynthesis")), "subject", "biology"))));

        // a new input instead of an answer: the conversation the model reads must still be well-formed
        JsonNode values = wait(thread, Map.of("assistant_id", "tutor", "input", Map.of(
                "messages", List.of(Map.of("role", "user", "content", "What is photosynthesis?")))));

        assertThat(values.has("__error__")).as("%s", values).isFalse();
        assertThat(last(values.get("messages")).get("content").asText()).isEqualTo("Photosynthesis is how plants turn light into sugar.");
        assertThat(values.get("subject").asText()).isEqualTo("biology");
        assertThat(lastRunStatus(thread)).isEqualTo("success");
    }

    // ---- helpers

    /** The newest run's recorded status (the run records, not the thread's state). */
    private static String lastRunStatus(String thread) throws Exception {
        JsonNode runs = json(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString());
        return runs.get(0).get("status").asText();
    }

    private static String thread() {
        String thread = "tutor-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        return thread;
    }

    private static JsonNode wait(String thread, Map<String, Object> body) throws Exception {
        return json(given().contentType("application/json").body(body).when().post("/threads/{t}/runs/wait", thread)
                .then().statusCode(200).extract().asString());
    }

    private static JsonNode question(JsonNode waited) {
        assertThat(waited.has("__interrupt__")).as("%s", waited).isTrue();
        return waited.get("__interrupt__").get(0).get("value");
    }

    private static JsonNode last(JsonNode messages) {
        return messages.get(messages.size() - 1);
    }

    private static List<JsonNode> ofType(JsonNode messages, String type) {
        List<JsonNode> out = new ArrayList<>();
        messages.forEach(m -> {
            if (m.get("type").asText().equals(type)) {
                out.add(m);
            }
        });
        return out;
    }

    /** SSE frames as (event name, data). */
    private static List<JsonNode[]> sse(String body) throws Exception {
        List<JsonNode[]> out = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            String event = null;
            StringBuilder data = new StringBuilder();
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            if (event != null && !data.isEmpty()) {
                out.add(new JsonNode[]{JsonCodec.MAPPER.getNodeFactory().textNode(event), json(data.toString())});
            }
        }
        return out;
    }

    private static JsonNode json(String s) throws Exception {
        return JsonCodec.MAPPER.readTree(s);
    }
}
