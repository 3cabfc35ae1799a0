package io.conduit.blueprints.tutor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.checkpoint.JsonCodec;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
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

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path APP = Path.of("target", "quarkus-app", "quarkus-run.jar");

    private final List<Process> started = new ArrayList<>();
    private StubRetrieval stub;
    private String base;

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
        if (stub != null) {
            stub.close();
        }
    }

    @Test
    void aQuizWaitingAtAQuestionResumesAfterTheServiceRestartsOnPostgres() throws Exception {
        assertThat(APP).as("the packaged app; ./mvnw test builds it before the tests (or ./mvnw quarkus:build)").exists();
        stub = new StubRetrieval();
        String db = database();
        int port = freePort();
        base = "http://127.0.0.1:" + port;

        Process first = start(db, port, "first");
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

        first.destroyForcibly(); // SIGKILL: nothing is flushed or recorded on the way out
        first.waitFor();

        start(db, port, "second");
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

    /** A database of its own, so the second app's recovery sees only this test's runs. */
    private static String database() throws Exception {
        String host = env("CONDUIT_DB_HOST", "127.0.0.1");
        String port = env("CONDUIT_DB_PORT", "5432");
        String name = env("CONDUIT_DB_NAME", "test") + "_tutor_restart";
        try (var c = DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres",
                env("CONDUIT_DB_USERNAME", "postgres"), env("CONDUIT_DB_PASSWORD", ""));
             var st = c.createStatement()) {
            try (var rs = st.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + name + "'")) {
                if (!rs.next()) {
                    st.execute("CREATE DATABASE \"" + name + "\"");
                }
            }
        }
        return name;
    }

    private Process start(String db, int port, String name) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = Path.of("target", "tutor-restart-" + name + ".log");
        List<String> cmd = new ArrayList<>(List.of(java,
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.http.host=127.0.0.1",
                "-Dconduit.checkpointer.store=postgres",
                "-Dconduit.db.name=" + db,
                "-Dconduit.simulator.enabled=true",
                "-Dconduit.simulator.script=" + TutorTestResources.SCRIPT,
                "-Dconduit.llm.base-url=http://127.0.0.1:" + port + "/simulator/v1",
                "-Dconduit.runs.poll-interval=200ms"));
        stub.config().forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-jar", APP.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(p);
        HttpClient probe = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new AssertionError("the app exited with " + p.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                if (probe.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return p;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the app (" + name + ") was not ready within " + WAIT + ":\n" + Files.readString(log));
    }

    private JsonNode send(HttpClient http, String method, String path, Object body) throws Exception {
        HttpRequest r = HttpRequest.newBuilder(URI.create(base + path)).timeout(WAIT)
                .header("content-type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body))).build();
        HttpResponse<String> res = http.send(r, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(method + " " + path + ": " + res.body()).isEqualTo(200);
        return JsonCodec.MAPPER.readTree(res.body());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
