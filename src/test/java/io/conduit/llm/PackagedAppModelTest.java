package io.conduit.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The packaged app ({@code target/quarkus-app}, built before the tests) in prod mode, as a process of its own with
 * no LLM key in its environment: it refuses to start and says what to set; with {@code conduit.llm.provider=simulated}
 * it starts and answers from the script, with the in-process model (its HTTP simulator stays off, as in prod).
 */
class PackagedAppModelTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Path APP = Path.of("target", "quarkus-app", "quarkus-run.jar");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopApps() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    void withNoKeyAndNoProviderThatNeedsNoneTheAppRefusesToStartAndSaysWhatToSet() throws Exception {
        Path log = Path.of("target", "packaged-no-key.log");
        Process app = start(log, freePort());

        assertThat(app.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the app exits by itself").isTrue();
        String output = Files.readString(log);
        assertThat(app.exitValue()).as(output).isNotZero();
        assertThat(output).contains("no API key set for provider openai (conduit.llm.api-key / OPENAI_API_KEY)")
                .contains("conduit.llm.base-url").contains("conduit.llm.provider=simulated");
    }

    @Test
    void withTheSimulatedProviderChosenTheAppStartsWithoutAKeyAndAnswersFromTheScript() throws Exception {
        int port = freePort();
        String base = "http://127.0.0.1:" + port;
        Path log = Path.of("target", "packaged-simulated.log");
        Process app = start(log, port, "-Dconduit.llm.provider=simulated");
        await(() -> {
            if (!app.isAlive()) {
                throw new AssertionError("the app exited with " + app.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                return http.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException notYet) {
                return false;
            }
        });

        String thread = "packaged-" + UUID.randomUUID();
        post(base + "/threads", Map.of("thread_id", thread));
        JsonNode values = post(base + "/threads/" + thread + "/runs/wait", Map.of("assistant_id", "agent",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week")))));

        JsonNode messages = values.get("messages");
        assertThat(messages.get(messages.size() - 1).get("content").asText()).startsWith("Here is a plan for your week");
        assertThat(values.get("llm_calls").get(0).get("provider").asText()).isEqualTo("simulated");
        assertThat(Files.readString(log)).contains("LLM: the simulated model in-process").doesNotContain("no API key set");
        HttpResponse<String> endpoint = http.send(HttpRequest.newBuilder(URI.create(base + "/simulator/v1/models")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(endpoint.statusCode()).as("the HTTP simulator stays off in prod").isEqualTo(404);
    }

    /** The packaged app on the memory store, with no key anywhere in its environment. */
    private Process start(Path log, int port, String... options) throws IOException {
        assertThat(APP).as("the packaged app; ./mvnw test builds it before the tests (or ./mvnw quarkus:build)").exists();
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1", "-Dconduit.checkpointer.store=memory",
                "-Dconduit.auth.mode=none"));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of("-jar", APP.toString()));
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().keySet().removeIf(name -> name.equals("OPENAI_API_KEY") || name.startsWith("CONDUIT_LLM_"));
        Process p = builder.start();
        started.add(p);
        return p;
    }

    private JsonNode post(String url, Object body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(WAIT)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return JsonCodec.MAPPER.readTree(r.body());
    }

    interface Check {
        boolean ok() throws Exception;
    }

    /** Polls until the app is ready: a process of its own sends no event to wait on. */
    private static void await(Check check) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (check.ok()) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("waited " + WAIT + " for the app to be ready");
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
