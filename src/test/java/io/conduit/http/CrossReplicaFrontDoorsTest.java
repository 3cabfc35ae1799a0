package io.conduit.http;

import static io.conduit.http.DrainClients.post;
import static io.conduit.http.DrainClients.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.PackagedApp;
import io.conduit.http.DrainClients.Socket;
import io.conduit.http.DrainClients.Sse;
import io.conduit.http.DrainClients.SseReader;
import io.conduit.kernel.JsonCodec;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The front doors that start a run and stream it in the same request (AG-UI over SSE and WebSocket, A2A's
 * {@code message/stream}, OpenAI's streamed chat completions), on two replicas of the packaged app on one database.
 * None of them can join a run by id: their client reads a run executed by the other replica when its request lands on
 * a thread whose run is executing there. The new run is queued behind it (they all submit with the default
 * {@code enqueue}), and the replica that ends the thread's run claims the next at once: the client replica records it,
 * the executor runs it, and its frames, in the door's own format, reach the client through the database.
 *
 * <p>The client replica never looks for runs on its own (its poll interval is an hour): it claims only what it is
 * woken for, so the queued run is the executor's, not whichever replica polled first.
 */
class CrossReplicaFrontDoorsTest {

    private static final String DB = "doors";
    private static final List<PackagedApp> APPS = new ArrayList<>();
    /** The replica the clients talk to. */
    private static String client;
    /** The replica that executes the threads' runs. */
    private static String executor;
    private static int executorPort;

    @BeforeAll
    static void startReplicas() throws Exception {
        int port = Integer.getInteger("conduit.front-doors-test.port", 0);
        PackagedApp a = app(port > 0 ? port : PackagedApp.freePort(), "1h");
        executorPort = port > 0 ? port + 1 : PackagedApp.freePort();
        PackagedApp b = app(executorPort, "200ms");
        client = a.base();
        executor = b.base();
        a.start("client");
        b.start("executor");
    }

    @AfterAll
    static void stopReplicas() {
        APPS.forEach(PackagedApp::close);
    }

    private static PackagedApp app(int port, String pollInterval) throws Exception {
        PackagedApp a = new PackagedApp(DB, port, "cross-doors", Map.of(
                "conduit.llm.provider", "simulated",
                "conduit.simulator.time-to-first-token", "100ms",
                "conduit.simulator.inter-token-delay", "40ms",
                "conduit.runs.poll-interval", pollInterval,
                "conduit.runs.lease", "10m"));
        APPS.add(a);
        return a;
    }

    /**
     * A thread whose run executes on the executor replica: created there, and claimed there (the client replica does
     * not poll, so it cannot take it). Planning a week is several model calls and tool rounds: seconds, during which
     * the thread is busy, and a run asked of it on the client replica waits behind it.
     */
    private static String busyOnExecutor() throws Exception {
        String thread = "doors-" + UUID.randomUUID();
        JsonNode run = send("POST", executor + "/threads/" + thread + "/runs", Map.of("assistant_id", "agent", "if_not_exists", "create",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week")))));
        assertThat(DrainClients.heldOn(DB, executorPort, run.get("run_id").asText())).as("the thread's run executes on the executor").isTrue();
        return thread;
    }

    /** The thread's last message, as the checkpoints hold it: the run's answer. */
    private static JsonNode lastMessage(String thread) throws Exception {
        JsonNode messages = send("GET", client + "/threads/" + thread + "/state", null).get("values").get("messages");
        JsonNode last = messages.get(messages.size() - 1);
        assertThat(last.get("type").asText()).as("the thread's last message: " + last).isEqualTo("ai");
        return last;
    }

    // ---- AG-UI

    private static String runAgentInput(String thread, String text) {
        return "{\"threadId\":\"" + thread + "\",\"runId\":\"r-" + UUID.randomUUID() + "\",\"state\":{},\"messages\":[{\"id\":\"u-"
                + UUID.randomUUID() + "\",\"role\":\"user\",\"content\":\"" + text + "\"}],\"tools\":[],\"context\":[],\"forwardedProps\":{}}";
    }

    @Test
    void anAgUiRunQueuedBehindTheExecutorsRunStreamsOverSseFromTheExecutor() throws Exception {
        String thread = busyOnExecutor();
        List<JsonNode> events = new ArrayList<>();
        try (SseReader stream = DrainClients.sse(post(client + "/ag-ui", runAgentInput(thread, "hello from the client replica over SSE")).build())) {
            Sse e;
            while ((e = stream.next()) != null) {
                events.add(e.json());
            }
        }
        assertAgUiRunOfTheExecutor(thread, events, "hello from the client replica over SSE");
    }

    @Test
    void anAgUiRunQueuedBehindTheExecutorsRunStreamsOverTheWebSocketFromTheExecutor() throws Exception {
        String thread = busyOnExecutor();
        Socket socket = Socket.open(client.replace("http:", "ws:") + "/ag-ui", "ag-ui");
        List<JsonNode> events = new ArrayList<>();
        try {
            socket.command(runAgentInput(thread, "hello from the client replica over a socket"));
            Socket.Frame f;
            while ((f = socket.next()) != null) {
                events.add(f.json());
                String type = f.json().path("type").asText();
                if (type.equals("RUN_FINISHED") || type.equals("RUN_ERROR")) {
                    break;
                }
            }
        } finally {
            socket.ws.sendClose(1000, "done");
        }
        assertAgUiRunOfTheExecutor(thread, events, "hello from the client replica over a socket");
    }

    /**
     * The run the client's input started executed on the executor, and the client got its whole AG-UI run: started
     * first, finished last with success, nothing after, and the answer's text once, as the thread holds it.
     */
    private static void assertAgUiRunOfTheExecutor(String thread, List<JsonNode> events, String said) throws Exception {
        List<String> types = events.stream().map(e -> e.path("type").asText()).toList();
        assertThat(types).as("the AG-UI events: " + events).isNotEmpty().doesNotContain("RUN_ERROR");
        assertThat(types.getFirst()).isEqualTo("RUN_STARTED");
        assertThat(types.getLast()).isEqualTo("RUN_FINISHED");
        assertThat(types.stream().filter(t -> t.equals("RUN_STARTED") || t.equals("RUN_FINISHED"))).hasSize(2);
        assertThat(events.getLast().path("outcome").path("type").asText()).isEqualTo("success");
        String runId = events.getFirst().get("runId").asText();
        assertThat(events.getFirst().get("threadId").asText()).isEqualTo(thread);
        assertThat(DrainClients.heldOn(DB, executorPort, runId)).as("run " + runId + " executed on the executor").isTrue();

        JsonNode answer = lastMessage(thread);
        Map<String, StringBuilder> texts = new LinkedHashMap<>();
        events.stream().filter(e -> e.path("type").asText().equals("TEXT_MESSAGE_CONTENT"))
                .forEach(e -> texts.computeIfAbsent(e.get("messageId").asText(), k -> new StringBuilder()).append(e.get("delta").asText()));
        assertThat(texts.get(answer.get("id").asText())).as("the answer's text deltas, each once: " + texts)
                .hasToString(answer.get("content").asText());
        assertThat(answer.get("content").asText()).endsWith("You said: " + said);
        JsonNode snapshot = events.stream().filter(e -> e.path("type").asText().equals("MESSAGES_SNAPSHOT")).reduce((a, b) -> b).orElseThrow();
        JsonNode snapshotLast = snapshot.get("messages").get(snapshot.get("messages").size() - 1);
        assertThat(snapshotLast.get("id").asText()).isEqualTo(answer.get("id").asText());
        assertThat(snapshotLast.get("content").asText()).isEqualTo(answer.get("content").asText());
    }

    // ---- A2A

    private static String a2aMessage(String method, String context, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":{\"message\":{\"kind\":\"message\",\"role\":\"user\","
                + "\"messageId\":\"m-" + UUID.randomUUID() + "\",\"contextId\":\"" + context + "\",\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}}}";
    }

    private static JsonNode tasksGet(String base, String taskId) throws Exception {
        return send("POST", base + "/a2a/agent", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tasks/get\",\"params\":{\"id\":\"" + taskId + "\"}}");
    }

    @Test
    void anA2aMessageStreamQueuedBehindTheExecutorsRunStreamsTheTaskFromTheExecutor() throws Exception {
        String thread = busyOnExecutor();
        List<JsonNode> results = new ArrayList<>();
        try (SseReader stream = DrainClients.sse(post(client + "/a2a/agent", a2aMessage("message/stream", thread, "hello from the client replica over A2A")).build())) {
            Sse e;
            while ((e = stream.next()) != null) {
                assertThat(e.json().get("id").asInt()).as("each event answers the call").isEqualTo(7);
                results.add(e.json().get("result"));
            }
        }
        assertThat(results).as("the task's events").isNotEmpty();
        assertThat(results.getFirst().get("kind").asText()).isEqualTo("task");
        String taskId = results.getFirst().get("id").asText();
        assertThat(DrainClients.heldOn(DB, executorPort, taskId)).as("task " + taskId + " executed on the executor").isTrue();
        JsonNode last = results.getLast();
        assertThat(last.get("kind").asText()).isEqualTo("status-update");
        assertThat(last.get("final").asBoolean()).isTrue();
        assertThat(last.get("status").get("state").asText()).isEqualTo("completed");
        assertThat(results.stream().filter(r -> r.path("final").asBoolean())).as("one final status update").hasSize(1);

        JsonNode answer = lastMessage(thread);
        StringBuilder streamed = new StringBuilder();
        results.stream().filter(r -> r.get("kind").asText().equals("artifact-update")
                        && r.get("artifact").get("artifactId").asText().equals(answer.get("id").asText()))
                .forEach(r -> streamed.append(r.get("artifact").get("parts").get(0).get("text").asText()));
        assertThat(streamed).as("the answer's artifact, each token once").hasToString(answer.get("content").asText());
        assertThat(answer.get("content").asText()).endsWith("You said: hello from the client replica over A2A");

        // both replicas hold the run's frames (the executor ran it, the client replica was relayed them): the same task
        JsonNode atExecutor = tasksGet(executor, taskId).get("result");
        JsonNode atClient = tasksGet(client, taskId).get("result");
        assertThat(atClient).as("tasks/get on the client replica and on the executor").isEqualTo(atExecutor);
        assertThat(atClient.get("status").get("state").asText()).isEqualTo("completed");
        assertThat(atClient.get("artifacts").toString()).contains(answer.get("id").asText());
    }

    /**
     * {@code tasks/resubscribe} on the replica that does not execute the task (a client whose stream was cut, come back
     * through the load balancer to the other replica): the task from its start, relayed from the executor, to its one
     * final status; the answer's artifact is the message the thread holds, each token once.
     */
    @Test
    void anA2aTaskInFlightOnTheExecutorIsResubscribedOnTheOtherReplica() throws Exception {
        String thread = busyOnExecutor();
        String taskId = send("GET", client + "/threads/" + thread + "/runs", null).get(0).get("run_id").asText();
        List<JsonNode> results = new ArrayList<>();
        String resubscribe = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\"" + taskId + "\"}}";
        try (SseReader stream = DrainClients.sse(post(client + "/a2a/agent", resubscribe).build())) {
            Sse e;
            while ((e = stream.next()) != null) {
                assertThat(e.json().get("id").asInt()).as("each event answers the call: " + e.json()).isEqualTo(9);
                results.add(e.json().get("result"));
            }
        }
        assertThat(results.getFirst().get("kind").asText()).as("the task first").isEqualTo("task");
        assertThat(results.getFirst().get("id").asText()).isEqualTo(taskId);
        assertThat(results.stream().filter(r -> r.path("final").asBoolean())).as("one final status update").hasSize(1);
        assertThat(results.getLast().get("status").get("state").asText()).isEqualTo("completed");
        JsonNode answer = lastMessage(thread);
        StringBuilder streamed = new StringBuilder();
        results.stream().filter(r -> r.get("kind").asText().equals("artifact-update")
                        && r.get("artifact").get("artifactId").asText().equals(answer.get("id").asText()))
                .forEach(r -> streamed.append(r.get("artifact").get("parts").get(0).get("text").asText()));
        assertThat(streamed).as("the answer's artifact, each token once").hasToString(answer.get("content").asText()).isNotEmpty();
    }

    /**
     * A task executed on one replica and read with {@code tasks/get} on a replica none of whose clients followed it:
     * that replica holds none of its frames, and answers from the run's record, its state only (no artifacts), as
     * any replica does once the log's retention is past.
     */
    @Test
    void anA2aTaskReadOnAReplicaThatNeverFollowedItHasItsState() throws Exception {
        String context = "doors-" + UUID.randomUUID();
        JsonNode sent = send("POST", executor + "/a2a/agent", a2aMessage("message/send", context, "hello from the executor over A2A")).get("result");
        assertThat(sent.get("status").get("state").asText()).as(sent.toString()).isEqualTo("completed");
        String taskId = sent.get("id").asText();
        JsonNode atExecutor = tasksGet(executor, taskId).get("result");
        JsonNode atClient = tasksGet(client, taskId).get("result");
        assertThat(atExecutor.get("artifacts")).as("the executor reads the task from its log").isEqualTo(sent.get("artifacts")).isNotEmpty();
        assertThat(atClient.get("id").asText()).isEqualTo(taskId);
        assertThat(atClient.get("contextId").asText()).isEqualTo(context);
        assertThat(atClient.get("status").get("state").asText()).as("the other replica: the record's state").isEqualTo("completed");
        assertThat(atClient.get("artifacts")).as("the record holds no artifacts").isEmpty();
    }

    /**
     * The doors' answers read whole (A2A's {@code message/send}, a chat completion without {@code stream}), asked of
     * the client replica together while the thread is busy on the executor: both wait, both run there one after the
     * other, and each request gets its own run's answer, as the thread holds it.
     */
    @Test
    void wholeAnswersQueuedBehindTheExecutorsRunComeFromTheExecutor() throws Exception {
        String thread = busyOnExecutor();
        CompletableFuture<HttpResponse<String>> a2a = DrainClients.HTTP.sendAsync(post(client + "/a2a/agent",
                a2aMessage("message/send", thread, "hello from a whole A2A answer")).build(), HttpResponse.BodyHandlers.ofString());
        CompletableFuture<HttpResponse<String>> completion = DrainClients.HTTP.sendAsync(post(client + "/v1/chat/completions",
                "{\"model\":\"agent\",\"messages\":[{\"role\":\"user\",\"content\":\"hello from a whole chat completion\"}]}")
                .header("X-Conduit-Thread", thread).build(), HttpResponse.BodyHandlers.ofString());

        HttpResponse<String> sent = a2a.get(DrainClients.WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
        JsonNode task = JsonCodec.MAPPER.readTree(sent.body()).get("result");
        assertThat(task).as("A2A's answer: " + sent.body()).isNotNull();
        assertThat(task.get("status").get("state").asText()).isEqualTo("completed");
        assertThat(DrainClients.heldOn(DB, executorPort, task.get("id").asText())).as("the task executed on the executor").isTrue();
        HttpResponse<String> answered = completion.get(DrainClients.WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
        String runId = answered.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", "");
        assertThat(DrainClients.heldOn(DB, executorPort, runId)).as("the completion's run executed on the executor").isTrue();
        String completed = JsonCodec.MAPPER.readTree(answered.body()).get("choices").get(0).get("message").get("content").asText();

        Map<String, String> inState = new LinkedHashMap<>();
        send("GET", client + "/threads/" + thread + "/state", null).get("values").get("messages").forEach(m -> {
            if (m.get("type").asText().equals("ai")) {
                inState.put(m.get("id").asText(), m.get("content").asText());
            }
        });
        JsonNode artifact = task.get("artifacts").get(task.get("artifacts").size() - 1);
        assertThat(inState).as("the task's answer in the thread")
                .containsEntry(artifact.get("artifactId").asText(), artifact.get("parts").get(0).get("text").asText());
        assertThat(artifact.get("parts").get(0).get("text").asText()).endsWith("You said: hello from a whole A2A answer");
        assertThat(inState.values()).as("the completion's answer in the thread").contains(completed);
        assertThat(completed).endsWith("You said: hello from a whole chat completion");
    }

    // ---- OpenAI chat completions

    @Test
    void aChatCompletionQueuedBehindTheExecutorsRunStreamsItsChunksFromTheExecutor() throws Exception {
        String thread = busyOnExecutor();
        String body = "{\"model\":\"agent\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hello from the client replica over chat completions\"}]}";
        List<String> data = new ArrayList<>();
        String runId;
        try (SseReader stream = DrainClients.sse(post(client + "/v1/chat/completions", body).header("X-Conduit-Thread", thread).build())) {
            runId = stream.response.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", "");
            Sse e;
            while ((e = stream.next()) != null) {
                data.add(e.data());
            }
        }
        assertThat(DrainClients.heldOn(DB, executorPort, runId)).as("run " + runId + " executed on the executor").isTrue();
        assertThat(data).as("the chunks").isNotEmpty();
        assertThat(data.getLast()).isEqualTo("[DONE]");
        List<JsonNode> chunks = new ArrayList<>();
        for (String d : data.subList(0, data.size() - 1)) {
            chunks.add(JsonCodec.MAPPER.readTree(d));
        }
        assertThat(chunks).allSatisfy(c -> assertThat(c.has("error")).as(c.toString()).isFalse());
        assertThat(chunks.stream().map(c -> c.get("id").asText()).distinct()).as("one completion").hasSize(1);
        StringBuilder text = new StringBuilder();
        List<String> finishes = new ArrayList<>();
        for (JsonNode c : chunks) {
            for (JsonNode choice : c.get("choices")) {
                text.append(choice.path("delta").path("content").asText(""));
                if (!choice.get("finish_reason").isNull()) {
                    finishes.add(choice.get("finish_reason").asText());
                }
            }
        }
        assertThat(finishes).as("one end").containsExactly("stop");
        assertThat(chunks.getLast().get("choices")).as("the usage chunk last").isEmpty();
        assertThat(chunks.getLast().get("usage").get("completion_tokens").asInt()).isPositive();
        JsonNode answer = lastMessage(thread);
        assertThat(text).as("the answer's text, each token once").hasToString(answer.get("content").asText());
        assertThat(answer.get("content").asText()).endsWith("You said: hello from the client replica over chat completions");
    }
}
