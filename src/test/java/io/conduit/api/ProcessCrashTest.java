package io.conduit.api;

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
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kill -9 in the middle of a turn. The packaged app ({@code target/quarkus-app}, which the build makes in
 * {@code process-test-classes}, before the tests) runs as a process of its own on PostgreSQL, with the simulator
 * answering slowly; it is killed with SIGKILL while the generator streams its answer, then started again. Its
 * start-up recovery finds the run still {@code running}, held by its own former incarnation, and resumes it from
 * its last checkpoint: the turn ends once, with the answer, and nothing that had finished runs twice.
 */
class ProcessCrashTest {

    private static final Duration WAIT = PackagedApp.WAIT;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    private PackagedApp app;
    private String base;

    @AfterEach
    void stopApps() {
        if (app != null) {
            app.close();
        }
    }

    @Test
    void aRunWhoseProcessWasKilledResumesWhenTheAppStartsAgain() throws Exception {
        // the restarted process (same port: the same replica) takes the run back as it starts; clients may join before
        slowApp("process-crash", "8s");

        Process first = app.start("first");
        String thread = "kill9-" + UUID.randomUUID();
        send("POST", "/threads", Map.of("thread_id", thread));
        JsonNode run = send("POST", "/threads/" + thread + "/runs", Map.of("assistant_id", "agent",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week")))));
        String runId = run.get("run_id").asText();
        // the generator is streaming the answer: everything before it is checkpointed
        PackagedApp.await("the generator to start", () -> {
            JsonNode s = send("GET", "/threads/" + thread + "/state", null);
            return s.path("next").toString().contains("generator");
        });
        awaitGeneratorToken(thread, runId); // some of the answer is out
        assertThat(PackagedApp.kill(first)).as("killed by SIGKILL").isEqualTo(137);

        app.start("second");
        JsonNode left = send("GET", "/threads/" + thread + "/runs/" + runId, null);
        // taken back by the restarted process as it starts: pending again, running, or already done
        assertThat(left.get("status").asText()).as("the dead process's run").isIn("running", "pending", "success");
        // clients reconnect (the SDK joins the run's Location) before this process has taken the run over
        var joined = http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/threads/" + thread + "/runs/" + runId + "/join"))
                .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        var streamed = http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/threads/" + thread + "/runs/" + runId + "/stream"))
                .timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
        PackagedApp.await("the run to end", () -> {
            String status = send("GET", "/threads/" + thread + "/runs/" + runId, null).get("status").asText();
            return !status.equals("pending") && !status.equals("running");
        });
        assertThat(send("GET", "/threads/" + thread + "/runs/" + runId, null).get("status").asText()).isEqualTo("success");

        JsonNode values = send("GET", "/threads/" + thread + "/state", null).get("values");
        List<String> types = new ArrayList<>();
        values.get("messages").forEach(m -> types.add(m.get("type").asText()));
        assertThat(types.stream().filter("human"::equals)).as("the turn was not started again").hasSize(1);
        assertThat(types.stream().filter("tool"::equals)).as("no tool ran twice").hasSize(3);
        JsonNode last = values.get("messages").get(values.get("messages").size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("ai");
        assertThat(last.get("content").asText()).startsWith("Here is a plan for your week");
        List<String> stages = new ArrayList<>();
        values.get("llm_calls").forEach(c -> stages.add(c.get("stage").asText()));
        assertThat(stages.stream().filter("planner"::equals)).as("the planner was not asked again").hasSize(2);
        assertThat(stages.stream().filter("generator"::equals)).as("one answer").hasSize(1);
        // the thread's status is settled just after the run's end is recorded
        PackagedApp.await("the thread to be idle", () -> send("GET", "/threads/" + thread, null).get("status").asText().equals("idle"));

        // the clients that joined got the end of the turn, not what the thread held when they asked
        JsonNode joinedValues = JsonCodec.MAPPER.readTree(joined.get().body().trim());
        JsonNode joinedMessages = joinedValues.get("messages");
        assertThat(joinedMessages).as("join: %s", joinedValues).isNotNull();
        assertThat(joinedMessages.get(joinedMessages.size() - 1).get("content").asText()).startsWith("Here is a plan for your week");
        String stream = streamed.get().body();
        assertThat(stream).contains("event: values").contains("Here is a plan for your week").contains("event: end");
    }

    /**
     * kill -9 with a lease of ten minutes: the restarted process (same host and port, so the same replica) knows its
     * previous incarnation is dead and takes the run back at once, without waiting for the lease. A client that saw
     * part of the answer before the crash rejoins with its {@code Last-Event-ID} and follows the resumed run live: new
     * events only, under ids above the one it had, increasing, with the resumed answer's tokens exactly once.
     */
    @Test
    void aRestartedProcessTakesItsRunsBackAtOnceAndARejoiningClientFollowsTheResumedRun() throws Exception {
        slowApp("process-takeover", "10m"); // only a takeover that does not wait for the lease resumes the run within the wait
        Process first = app.start("first");
        String thread = "takeover-" + UUID.randomUUID();
        send("POST", "/threads", Map.of("thread_id", thread));
        HttpRequest create = HttpRequest.newBuilder(URI.create(base + "/threads/" + thread + "/runs/stream")).timeout(WAIT)
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(Map.of(
                        "assistant_id", "agent", "stream_mode", List.of("messages-tuple", "values"),
                        "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))))))).build();
        HttpResponse<java.util.stream.Stream<String>> response = http.send(create, HttpResponse.BodyHandlers.ofLines());
        String runId = response.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", "");
        // read the stream until the generator has streamed a few tokens: the client's last id is that of the last one
        long lastId = -1;
        int generatorTokens = 0;
        java.util.Iterator<String> it = response.body().iterator();
        boolean generator = false;
        while (generatorTokens < 3 && it.hasNext()) {
            String line = it.next();
            if (line.startsWith("data:")) {
                generator = line.contains("\"langgraph_node\":\"generator\"");
            } else if (line.startsWith("id: ")) {
                lastId = Long.parseLong(line.substring(4));
                if (generator) {
                    generatorTokens++;
                }
            }
        }
        assertThat(generatorTokens).as("tokens of the answer before the crash").isEqualTo(3);
        assertThat(PackagedApp.kill(first)).as("killed by SIGKILL").isEqualTo(137);
        response.body().close();

        app.start("second");
        long ready = System.nanoTime();
        HttpRequest rejoin = HttpRequest.newBuilder(URI.create(base + "/threads/" + thread + "/runs/" + runId
                        + "/stream?stream_mode=%5B%22messages-tuple%22%2C%22values%22%5D"))
                .header("Last-Event-ID", Long.toString(lastId)).timeout(WAIT).build();
        // read to its end on a thread of its own (a request's timeout bounds only its headers); the time from readiness
        // to the resumed run's first event at the client is reported, not asserted
        long[] firstEvent = {-1};
        java.util.concurrent.CompletableFuture<String> body = new java.util.concurrent.CompletableFuture<>();
        HttpResponse<java.util.stream.Stream<String>> rejoined = http.send(rejoin, HttpResponse.BodyHandlers.ofLines());
        Thread.ofVirtual().start(() -> {
            StringBuilder text = new StringBuilder();
            try (java.util.stream.Stream<String> lines = rejoined.body()) {
                lines.forEach(line -> {
                    if (firstEvent[0] < 0 && line.startsWith("event:")) {
                        firstEvent[0] = System.nanoTime();
                    }
                    text.append(line).append('\n');
                });
                body.complete(text.toString());
            } catch (RuntimeException e) {
                body.completeExceptionally(e);
            }
        });
        List<SseClient.Sse> events = SseClient.parse(body.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS));
        PackagedApp.await("the run to end", () -> {
            String status = send("GET", "/threads/" + thread + "/runs/" + runId, null).get("status").asText();
            return !status.equals("pending") && !status.equals("running");
        });
        assertThat(send("GET", "/threads/" + thread + "/runs/" + runId, null).get("status").asText()).isEqualTo("success");

        // only new events, under ids above the client's last, increasing; then the end
        assertThat(events).as("the rejoined stream").isNotEmpty();
        long after = lastId;
        assertThat(events).extracting(SseClient.Sse::id).allMatch(id -> id > after).isSorted().doesNotHaveDuplicates();
        assertThat(events.get(events.size() - 1).event()).isEqualTo("end");
        assertThat(events).extracting(SseClient.Sse::event).contains("messages", "values");
        // the resumed answer's tokens, each once: joined, they are the answer the thread holds
        JsonNode messages = send("GET", "/threads/" + thread + "/state", null).get("values").get("messages");
        JsonNode answer = messages.get(messages.size() - 1);
        StringBuilder streamedAnswer = new StringBuilder();
        events.stream().filter(e -> e.event().equals("messages") && e.data().get(0).path("id").asText().equals(answer.get("id").asText()))
                .forEach(e -> streamedAnswer.append(e.data().get(0).path("content").asText()));
        assertThat(streamedAnswer.toString()).isEqualTo(answer.get("content").asText());
        assertThat(answer.get("content").asText()).startsWith("Here is a plan for your week");

        String line = "kill -9 takeover: run " + runId + ", first resumed event at the rejoined client "
                + (firstEvent[0] - ready) / 1_000_000 + " ms after the restarted process was ready\n";
        System.out.print(line);
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "takeover-times.txt"), line,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    /** The packaged app on a port of its own, with a simulator answering 10 tokens a second, and {@code lease}. */
    private void slowApp(String logName, String lease) throws Exception {
        int port = Integer.getInteger("conduit.crash-test.port", 0);
        app = new PackagedApp("crash", port > 0 ? port : PackagedApp.freePort(), logName, Map.of(
                "conduit.simulator.time-to-first-token", "100ms",
                "conduit.simulator.inter-token-delay", "100ms",
                "conduit.runs.poll-interval", "200ms",
                "conduit.runs.lease", lease));
        base = app.base();
    }

    /** Joins the run's stream and returns once a token of the generator's answer has been streamed. */
    private void awaitGeneratorToken(String thread, String runId) throws Exception {
        HttpRequest join = HttpRequest.newBuilder(URI.create(base + "/threads/" + thread + "/runs/" + runId + "/stream?stream_mode=messages-tuple"))
                .timeout(WAIT).GET().build();
        try (java.util.stream.Stream<String> lines = http.send(join, HttpResponse.BodyHandlers.ofLines()).body()) {
            assertThat(lines.anyMatch(l -> l.startsWith("data:") && l.contains("\"langgraph_node\":\"generator\"")))
                    .as("a token of the generator's answer streamed").isTrue();
        }
    }

    private JsonNode send(String method, String path, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(JsonCodec.MAPPER.writeValueAsString(body)));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isEqualTo(200);
        return JsonCodec.MAPPER.readTree(r.body());
    }
}
