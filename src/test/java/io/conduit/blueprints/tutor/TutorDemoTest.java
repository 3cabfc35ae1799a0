package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.DocCommands;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The tutor's demo as its page shows it ("Try it" in docs/blueprints/tutor.md), its curl commands run as written, on
 * the simulator's default script and with no retrieval service configured: a basic question answered from the
 * built-in course material, an advanced one with its thinking kept apart, and a quiz that stops at each question
 * with its choices, judges each answer and gives the score; and the README's chat-page demo ("pick tutor and say quiz
 * me on photosynthesis") over the thread protocol's WebSocket as the page plays it (src/test/js/tutor-chat-demo.mjs):
 * the tool cards of a question finish without an error, the quiz asks its questions with their choices.
 */
@QuarkusTest
class TutorDemoTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @ConfigProperty(name = "conduit.simulator.script")
    Optional<String> script;

    @Test
    void thePagesDemoRatesAnswersFromTheCourseMaterialAndQuizzes() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        DocCommands demo = DocCommands.of("docs/blueprints/tutor.md", "## Try it").replacing("tutor1", "tutor-demo-" + UUID.randomUUID());
        assertThat(demo.commands()).hasSize(7);
        demo.run(0, port);

        // a basic question: rated by the rules, answered from the course material
        JsonNode basic = json(demo.run(1, port));
        assertThat(basic.has("__error__")).as("%s", basic).isFalse();
        assertThat(basic.get("difficulty").asText()).isEqualTo("basic");
        List<JsonNode> tools = ofType(basic.get("messages"), "tool");
        assertThat(tools).extracting(t -> t.get("name").asText()).containsExactly("rag_search", "get_guide");
        assertThat(tools).allSatisfy(t -> assertThat(t.path("status").asText()).as("%s", t).isNotEqualTo("error"));
        assertThat(tools.get(0).get("content").asText()).as("the passages, numbered with their sources").startsWith("[1] (");
        assertThat(tools.get(0).get("content").asText()).contains("(built-in course: What photosynthesis is) Photosynthesis is");
        assertThat(tools.get(1).get("content").asText().toLowerCase()).contains("photosynthesis");
        assertThat(basic.get("context")).isNotEmpty();
        String answer = last(basic.get("messages")).get("content").asText();
        assertThat(answer).doesNotContain("You said").containsIgnoringCase("chlorophyll");

        // an advanced one: the thinking is kept apart from the answer
        JsonNode advanced = json(demo.run(2, port));
        assertThat(advanced.get("difficulty").asText()).isEqualTo("advanced");
        assertThat(advanced.get("thinking").asText()).isNotBlank();
        assertThat(last(advanced.get("messages")).get("content").asText()).isNotBlank().doesNotContain("<thinking>", "<answer>");

        // the quiz: a question with its choices, one at a time
        JsonNode q1 = question(json(demo.run(3, port)));
        assertThat(q1.get("action").asText()).isEqualTo("answer_question");
        assertThat(q1.get("question_num").asInt()).isEqualTo(1);
        assertThat(q1.get("total_questions").asInt()).isEqualTo(3);
        assertThat(q1.get("question_text").asText()).containsIgnoringCase("photosynthesis");
        assertThat(q1.get("choices")).hasSize(4);
        JsonNode q2 = question(json(demo.run(4, port)));
        assertThat(q2.get("question_num").asInt()).isEqualTo(2);
        assertThat(q2.get("choices").toString()).contains("Oxygen");
        JsonNode q3 = question(json(demo.run(5, port)));
        assertThat(q3.get("question_num").asInt()).isEqualTo(3);

        JsonNode done = json(demo.run(6, port));
        assertThat(done.has("__interrupt__")).as("%s", done).isFalse();
        JsonNode quiz = done.get("quiz");
        assertThat(quiz.get("status").asText()).isEqualTo("finished");
        List<Boolean> verdicts = new ArrayList<>();
        quiz.get("results").forEach(r -> verdicts.add(r.get("correct").asBoolean()));
        assertThat(verdicts).containsExactly(true, true, false);
        String rightOne = q3.get("choices").get(2).asText();
        assertThat(quiz.get("results").get(2).get("feedback").asText()).contains("C) " + rightOne);
        assertThat(last(done.get("messages")).get("content").asText()).startsWith("Quiz on photosynthesis finished: you scored 2/3.");
        // the quiz was written from what its searches found in the course material
        List<String> queries = new ArrayList<>();
        quiz.get("queries").forEach(q -> queries.add(q.asText()));
        assertThat(queries).hasSize(3);
        List<String> searched = done.get("context").findValuesAsText("query");
        assertThat(searched).containsAll(queries);
    }

    @Test
    void theReadmesChatPageDemoShowsTheCourseCardsAndTheQuiz() throws Exception {
        assertThat(script).as("the default script, not a test's").isEmpty();
        JsonNode r = io.conduit.NodeClient.run("tutor-chat-demo.mjs", 90, "http://localhost:" + port);
        assertThat(r.get("checks").asInt()).as("checks the client made").isGreaterThan(25);
        assertThat(r.get("score").asText()).isEqualTo("2/3");
    }

    private static JsonNode json(String body) throws Exception {
        return JsonCodec.MAPPER.readTree(body.strip());
    }

    private static JsonNode question(JsonNode values) {
        assertThat(values.has("__interrupt__")).as("the run stopped at a question: %s", values).isTrue();
        return values.get("__interrupt__").get(0).get("value");
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
}
