package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.PackagedApp;
import io.conduit.kernel.JsonCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A quiz outlives its process. The packaged app ({@code target/quarkus-app}, built before the tests) runs on
 * PostgreSQL with the simulator and a stub retrieval service; a quiz is started and its first question answered, the
 * process is killed (SIGKILL) while the quiz waits at question 2, and a new process on the same database, answered by
 * another HTTP client, goes on from question 2: the questions are not written again, and the score counts every
 * answer, the one given before the restart included.
 */
class TutorQuizRestartTest {

    private static final Duration WAIT = PackagedApp.WAIT;

    private PackagedApp app;
    private StubRetrieval stub;
    private String base;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
        if (stub != null) {
            stub.close();
        }
    }

    @Test
    void aQuizWaitingAtAQuestionResumesAfterTheServiceRestartsOnPostgres() throws Exception {
        stub = new StubRetrieval();
        Map<String, String> settings = new HashMap<>(stub.config());
        settings.put("conduit.simulator.script", TutorTestResources.SCRIPT.toString());
        settings.put("conduit.runs.poll-interval", "200ms");
        app = new PackagedApp("tutor_restart", PackagedApp.freePort(), "tutor-restart", settings);
        base = app.base();

        Process first = app.start("first");
        HttpClient before = HttpClient.newHttpClient();
        String thread = "tutor-restart-" + UUID.randomUUID();
        send(before, "POST", "/threads", Map.of("thread_id", thread));
        JsonNode q1 = question(send(before, "POST", "/threads/" + thread + "/runs/wait", Map.of("assistant_id", "tutor",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Quiz me on photosynthesis")), "subject", "biology"))));
        assertThat(q1.get("question_num").asInt()).isEqualTo(1);
        JsonNode q2 = question(send(before, "POST", "/threads/" + thread + "/runs/wait",
                Map.of("assistant_id", "tutor", "command", Map.of("resume", "A"))));
        assertThat(q2.get("question_num").asInt()).isEqualTo(2);
        int searches = stub.searches().size();

        PackagedApp.kill(first);

        app.start("second");
        HttpClient after = HttpClient.newHttpClient(); // another client: nothing is carried but the thread id
        JsonNode q3 = question(send(after, "POST", "/threads/" + thread + "/runs/wait",
                Map.of("assistant_id", "tutor", "command", Map.of("resume", "B"))));
        assertThat(q3.get("question_num").asInt()).isEqualTo(3);
        assertThat(q3.get("total_questions").asInt()).isEqualTo(3);
        assertThat(q3.get("question_text").asText()).isEqualTo("Where does photosynthesis happen in a plant cell?");
        JsonNode done = send(after, "POST", "/threads/" + thread + "/runs/wait",
                Map.of("assistant_id", "tutor", "command", Map.of("resume", "D")));

        assertThat(done.has("__interrupt__")).as("%s", done).isFalse();
        JsonNode quiz = done.get("quiz");
        assertThat(quiz.get("status").asText()).isEqualTo("finished");
        List<String> answers = new ArrayList<>();
        quiz.get("results").forEach(r -> answers.add(r.get("answer").asText()));
        assertThat(answers).containsExactly("A", "B", "D");
        assertThat(done.get("messages").get(done.get("messages").size() - 1).get("content").asText())
                .startsWith("Quiz on photosynthesis finished: you scored 2/3.");
        List<String> stages = new ArrayList<>();
        done.get("llm_calls").forEach(c -> stages.add(c.get("stage").asText()));
        assertThat(stages.stream().filter("generate_questions"::equals)).as("the questions were written once").hasSize(2);
        assertThat(stages.stream().filter("judge_answer"::equals)).as("each answer judged once").hasSize(3);
        assertThat(stub.searches()).as("nothing was searched again").hasSize(searches);
    }

    private static JsonNode question(JsonNode waited) {
        assertThat(waited.has("__interrupt__")).as("%s", waited).isTrue();
        return waited.get("__interrupt__").get(0).get("value");
    }

    private JsonNode send(HttpClient http, String method, String path, Object body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT)
                .header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body))).build();
        HttpResponse<String> res = http.send(r, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(method + " " + path + ": " + res.body()).isEqualTo(200);
        return JsonCodec.MAPPER.readTree(res.body());
    }
}
