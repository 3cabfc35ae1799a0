package io.conduit.http;

import static io.conduit.http.DrainClients.post;
import static io.conduit.http.DrainClients.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.PackagedApp;
import io.conduit.http.DrainClients.Socket;
import io.conduit.http.DrainClients.Sse;
import io.conduit.http.DrainClients.SseReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A rolling deploy in the middle of a turn, over each transport. The packaged app runs as two processes on one
 * PostgreSQL database, two replicas (two ports), the old one and the deploy's new one: the turn runs on the old one,
 * with a client streaming it there, and the old one gets SIGTERM while the model streams. It drains: its stream
 * ends with the transport's word to reconnect, after the events it had (SSE: {@code error} {@code server_shutting_down}
 * with a {@code retry:}; WebSocket: 1012), and it hands the run back at the end of its step. The client reconnects to
 * the second replica with its last id; that replica resumes the run from its checkpoint at once (a lease of ten
 * minutes: only the hand-back moves it), and the client sees every token exactly once. The times are reported in
 * {@code target/drain-times.txt}, not asserted.
 */
class ReplicaDrainTest {

    private static final String PROMPT = "Please plan my week";
    private final List<PackagedApp> apps = new ArrayList<>();
    private String leavingBase;
    private String stayingBase;
    private Process leaving;
    private String leavingLog;
    private int leavingPort;

    @AfterEach
    void stopApps() {
        apps.forEach(PackagedApp::close);
    }

    @Test
    void classicSse() throws Exception {
        startReplicas("sse");
        ClassicTurn turn;
        int attempts = 0;
        do { // until the leaving replica holds the run (the other one may claim it first, rarely)
            assertThat(attempts++).as("attempts to start the turn on the leaving replica").isLessThan(5);
            turn = classicTurn();
        } while (!heldByLeaving(turn.runId(), turn.first()));
        List<Sse> before = new ArrayList<>();
        DrainClients.untilTokens(turn.first(), before, 2);
        long sigterm = sigterm();
        Sse last = toldToReconnect(turn.first(), before);
        List<Sse> after = rejoin(stayingBase, turn, before);
        assertDrained();
        assertEachTokenOnce(turn, before, after);
        report("classic SSE", sigterm, last.atNanos(), after.get(0).atNanos());
    }

    /**
     * The same with one replica, restarted (a deploy with no second replica, or a process restarted in place): the run
     * it handed back waits, pending, and the restarted process claims it as it starts.
     */
    @Test
    void classicSseAcrossARestartOfTheOnlyReplica() throws Exception {
        int port = Integer.getInteger("conduit.drain-test.port", 0);
        leavingPort = port > 0 ? port : PackagedApp.freePort();
        PackagedApp only = app(leavingPort, "drain-restart");
        leavingBase = only.base();
        stayingBase = only.base();
        leaving = only.start("leaving");
        leavingLog = "drain-restart-leaving.log";
        ClassicTurn turn = classicTurn();
        List<Sse> before = new ArrayList<>();
        DrainClients.untilTokens(turn.first(), before, 2);
        long sigterm = sigterm();
        Sse last = toldToReconnect(turn.first(), before);
        assertDrained();
        only.start("restarted");
        long ready = System.nanoTime();
        List<Sse> after = rejoin(leavingBase, turn, before);
        assertEachTokenOnce(turn, before, after);
        report("classic SSE, the only replica restarted (its start included)", sigterm, last.atNanos(), after.get(0).atNanos());
        String line = String.format("  (the restarted replica ready to the first resumed event: %d ms)%n",
                (after.get(0).atNanos() - ready) / 1_000_000);
        System.out.print(line);
        Files.writeString(Path.of("target", "drain-times.txt"), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    // ---- the classic turn

    /** A turn streamed over classic SSE: its thread, its run, the stream that created it. */
    private record ClassicTurn(String thread, String runId, SseReader first) {
    }

    private ClassicTurn classicTurn() throws Exception {
        String thread = thread();
        SseReader first = DrainClients.sse(post(leavingBase + "/threads/" + thread + "/runs/stream", Map.of("assistant_id", "agent",
                "stream_mode", List.of("messages-tuple", "values"),
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", PROMPT))))).build());
        return new ClassicTurn(thread, first.response.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", ""), first);
    }

    /** Reads the stream to its end, which is the drain's word to reconnect; returns that event. */
    private static Sse toldToReconnect(SseReader first, List<Sse> before) {
        Sse last = DrainClients.readToEnd(first, before);
        assertThat(last).as("the stream's last event").isNotNull();
        assertThat(last.event()).isEqualTo("error");
        assertThat(last.json().get("error").asText()).isEqualTo("server_shutting_down");
        assertThat(last.retry()).as("a retry hint").isEqualTo(1000L);
        assertThat(last.id()).as("no id: Last-Event-ID stays on the last event received").isEqualTo(-1);
        return last;
    }

    /** Rejoins the run at {@code base} with the last id received, and reads it to its end. */
    private static List<Sse> rejoin(String base, ClassicTurn turn, List<Sse> before) throws Exception {
        long lastId = before.stream().mapToLong(Sse::id).max().orElseThrow();
        List<Sse> after = new ArrayList<>();
        try (SseReader again = DrainClients.sse(HttpRequest.newBuilder(URI.create(base + "/threads/" + turn.thread() + "/runs/"
                + turn.runId() + "/stream?stream_mode=%5B%22messages-tuple%22%2C%22values%22%5D"))
                .header("Last-Event-ID", Long.toString(lastId)).timeout(DrainClients.WAIT).build())) {
            Sse end = DrainClients.readToEnd(again, after);
            assertThat(end).isNotNull();
            assertThat(end.event()).as("the resumed run's stream ends with its end").isEqualTo("end");
        }
        assertThat(after).extracting(Sse::id).allMatch(id -> id > lastId || id == -1);
        return after;
    }

    /** Ids only increase across the two connections, nothing repeated; each AI message streamed whole, once. */
    private void assertEachTokenOnce(ClassicTurn turn, List<Sse> before, List<Sse> after) throws Exception {
        String status = send("GET", stayingBase + "/threads/" + turn.thread() + "/runs/" + turn.runId(), null).get("status").asText();
        assertThat(status).isEqualTo("success");
        List<Long> ids = new ArrayList<>();
        before.stream().filter(e -> e.id() >= 0).forEach(e -> ids.add(e.id()));
        after.stream().filter(e -> e.id() >= 0).forEach(e -> ids.add(e.id()));
        assertThat(ids).isSorted().doesNotHaveDuplicates();
        Map<String, StringBuilder> streamed = new LinkedHashMap<>();
        List<Sse> all = new ArrayList<>(before);
        all.addAll(after);
        all.stream().filter(e -> e.event().equals("messages")).map(e -> e.json().get(0))
                .filter(m -> m.path("type").asText().toLowerCase().startsWith("ai"))
                .forEach(m -> streamed.computeIfAbsent(m.get("id").asText(), k -> new StringBuilder()).append(m.path("content").asText()));
        JsonNode messages = send("GET", stayingBase + "/threads/" + turn.thread() + "/state", null).get("values").get("messages");
        Map<String, String> inState = new LinkedHashMap<>();
        messages.forEach(m -> {
            if (m.get("type").asText().equals("ai")) {
                inState.put(m.get("id").asText(), m.get("content").asText());
            }
        });
        assertThat(inState.keySet()).as("every streamed message is one the thread holds: no step's output was cut and redone")
                .containsAll(streamed.keySet());
        streamed.forEach((id, text) -> assertThat(text.toString()).as("message %s, streamed", id).isEqualTo(inState.get(id)));
        String answer = messages.get(messages.size() - 1).get("content").asText();
        assertThat(answer).startsWith("Here is a plan for your week");
        assertThat(streamed.values().stream().map(StringBuilder::toString)).as("the answer streamed").contains(answer);
        assertThat(types(messages).stream().filter("human"::equals)).as("the turn was not started again").hasSize(1);
    }

    @Test
    void threadProtocolOverSse() throws Exception {
        startReplicas("protocol-sse");
        String filter = "{\"channels\":[\"messages\",\"lifecycle\"]";
        String thread;
        String runId;
        SseReader first;
        int attempts = 0;
        do {
            assertThat(attempts++).as("attempts to start the turn on the leaving replica").isLessThan(5);
            thread = thread();
            first = DrainClients.sse(post(leavingBase + "/threads/" + thread + "/stream/events", filter + "}").build());
            JsonNode started = send("POST", leavingBase + "/threads/" + thread + "/commands", JsonFor.runStart(1));
            runId = started.path("result").path("run_id").asText();
            assertThat(runId).as(started.toString()).isNotEmpty();
        } while (!heldByLeaving(runId, first));
        List<Sse> before = new ArrayList<>();
        DrainClients.untilDeltas(first, before, 2);
        long sigterm = sigterm();
        Sse last = DrainClients.readToEnd(first, before);
        assertThat(last).isNotNull();
        assertThat(last.event()).isEqualTo("error");
        assertThat(last.json().get("error").asText()).isEqualTo("server_shutting_down");
        assertThat(last.retry()).isEqualTo(1000L);
        long lastSeq = before.stream().mapToLong(Sse::id).max().orElseThrow();

        List<Sse> after = new ArrayList<>();
        try (SseReader again = DrainClients.sse(post(stayingBase + "/threads/" + thread + "/stream/events",
                filter + ",\"since\":" + lastSeq + "}").build())) {
            Sse e;
            while ((e = again.next()) != null) {
                after.add(e);
                if (e.id() >= 0 && DrainClients.rootCompleted(e.json())) {
                    break; // the thread's stream stays open between runs: the turn's end is the client's
                }
            }
        }
        assertDrained();
        assertThat(send("GET", stayingBase + "/threads/" + thread + "/runs/" + runId, null).get("status").asText()).isEqualTo("success");
        List<JsonNode> events = new ArrayList<>();
        List<Long> seqs = new ArrayList<>();
        for (List<Sse> part : List.of(before, after)) {
            part.stream().filter(e -> e.id() >= 0).forEach(e -> {
                events.add(e.json());
                seqs.add(e.id());
            });
        }
        assertThat(seqs).isSorted().doesNotHaveDuplicates();
        assertThat(DrainClients.rootCompleted(events.get(events.size() - 1))).as("the last event is the root's completed").isTrue();
        assertTokensOnce(thread, events);
        report("thread protocol over SSE", sigterm, last.atNanos(), after.get(0).atNanos());
    }

    @Test
    void threadProtocolOverWebSocket() throws Exception {
        startReplicas("protocol-ws");
        String thread;
        Socket first;
        List<Socket.Frame> before = new ArrayList<>();
        int attempts = 0;
        while (true) {
            assertThat(attempts++).as("attempts to start the turn on the leaving replica").isLessThan(5);
            thread = thread();
            first = Socket.open(leavingBase.replace("http:", "ws:") + "/threads/" + thread + "/stream/events");
            first.command("{\"id\":1,\"method\":\"subscription.subscribe\",\"params\":{\"channels\":[\"messages\",\"lifecycle\"]}}");
            first.command(JsonFor.runStart(2));
            String runId = null;
            while (runId == null) {
                Socket.Frame f = first.next();
                assertThat(f).as("the run.start answer").isNotNull();
                before.add(f);
                if (f.json().path("id").asInt() == 2) {
                    runId = f.json().path("result").path("run_id").asText();
                    assertThat(runId).as(f.json().toString()).isNotEmpty();
                }
            }
            if (DrainClients.heldOn(leavingPort, runId)) {
                break;
            }
            first.ws.sendClose(1000, "elsewhere");
            before.clear();
        }
        DrainClients.untilDeltas(first, before, 2);
        long sigterm = sigterm();
        Socket.Frame f;
        while ((f = first.next()) != null) {
            before.add(f);
        }
        String close = first.closed.get(DrainClients.WAIT.toSeconds(), TimeUnit.SECONDS);
        long closedAt = System.nanoTime();
        assertThat(close).as("the close").startsWith("1012 service restart");
        long lastSeq = before.stream().filter(x -> x.json().has("seq")).mapToLong(x -> x.json().get("seq").asLong()).max().orElseThrow();

        Socket again = Socket.open(stayingBase.replace("http:", "ws:") + "/threads/" + thread + "/stream/events");
        again.command("{\"id\":1,\"method\":\"subscription.subscribe\",\"params\":{\"channels\":[\"messages\",\"lifecycle\"],\"since\":" + lastSeq + "}}");
        List<Socket.Frame> after = new ArrayList<>();
        long firstResumed = -1;
        while ((f = again.next()) != null) {
            after.add(f);
            if (f.json().has("seq") && firstResumed < 0) {
                firstResumed = f.atNanos();
            }
            if (DrainClients.rootCompleted(f.json())) {
                break;
            }
        }
        again.ws.sendClose(1000, "done");
        assertDrained();
        List<JsonNode> events = new ArrayList<>();
        for (List<Socket.Frame> part : List.of(before, after)) {
            part.stream().map(Socket.Frame::json).filter(j -> j.has("seq")).forEach(events::add);
        }
        assertThat(events).extracting(j -> j.get("seq").asLong()).isSorted().doesNotHaveDuplicates();
        assertThat(DrainClients.rootCompleted(events.get(events.size() - 1))).as("the last event is the root's completed").isTrue();
        assertTokensOnce(thread, events);
        report("thread protocol over WebSocket", sigterm, closedAt, firstResumed);
    }

    // ---- the deploy

    /**
     * The old replica, where the turn runs, and the deploy's new one. Both are up before the turn starts: the run must
     * still be running when the old one gets its SIGTERM, however slowly a process starts on this machine.
     */
    private void startReplicas(String name) throws Exception {
        int port = Integer.getInteger("conduit.drain-test.port", 0);
        leavingPort = port > 0 ? port : PackagedApp.freePort();
        PackagedApp a = app(leavingPort, "drain-" + name);
        PackagedApp b = app(port > 0 ? port + 1 : PackagedApp.freePort(), "drain-" + name);
        leavingBase = a.base();
        stayingBase = b.base();
        leaving = a.start("leaving");
        leavingLog = "drain-" + name + "-leaving.log";
        b.start("staying");
    }

    private String thread() throws Exception {
        String thread = "drain-" + UUID.randomUUID();
        send("POST", leavingBase + "/threads", Map.of("thread_id", thread));
        return thread;
    }

    /** Whether the leaving replica claimed the run; if not, its stream there is closed (the test starts another turn). */
    private boolean heldByLeaving(String runId, SseReader stream) throws Exception {
        if (DrainClients.heldOn(leavingPort, runId)) {
            return true;
        }
        stream.close();
        return false;
    }

    /** SIGTERM to the leaving replica; the time it was sent. */
    private long sigterm() {
        long at = System.nanoTime();
        leaving.destroy(); // SIGTERM
        return at;
    }

    /** The leaving replica exited by itself, having handed the run back at a step boundary. */
    private void assertDrained() throws Exception {
        assertThat(leaving.waitFor(DrainClients.WAIT.toSeconds(), TimeUnit.SECONDS)).as("the drained replica exits").isTrue();
        String log = Files.readString(Path.of("target", leavingLog));
        assertThat(log).contains("handed back at a step boundary").contains("Drained in");
    }

    /** A replica on the test's database; a simulated model that streams slowly; a lease of ten minutes. */
    private PackagedApp app(int port, String logName) throws Exception {
        PackagedApp a = new PackagedApp("drain", port, logName, Map.of(
                // the model in-process, as an external one would be: the simulator's HTTP endpoint is the draining
                // replica's own, and refuses new requests (503) once its shutdown begins, failing a node mid-step
                "conduit.llm.provider", "simulated",
                "conduit.simulator.time-to-first-token", "100ms",
                "conduit.simulator.inter-token-delay", "150ms",
                "conduit.runs.poll-interval", "200ms",
                "conduit.runs.lease", "10m",
                "conduit.runs.drain-step-wait", "60s",
                "%prod.quarkus.shutdown.timeout", "75s"));
        apps.add(a);
        return a;
    }

    /**
     * Every token exactly once, over the two connections: the text deltas joined are the text blocks as they finished
     * (a step cut and run again would have streamed its start twice), and the answer the thread holds is one of them.
     */
    private void assertTokensOnce(String thread, List<JsonNode> events) throws Exception {
        StringBuilder deltas = new StringBuilder();
        StringBuilder finished = new StringBuilder();
        List<String> blocks = new ArrayList<>();
        for (JsonNode e : events) {
            String d = DrainClients.textDelta(e);
            if (d != null) {
                deltas.append(d);
            }
            String whole = DrainClients.finishedText(e);
            if (whole != null) {
                finished.append(whole);
                blocks.add(whole);
            }
        }
        assertThat(deltas.toString()).as("the deltas, joined").isEqualTo(finished.toString());
        JsonNode messages = send("GET", stayingBase + "/threads/" + thread + "/state", null).get("values").get("messages");
        String answer = messages.get(messages.size() - 1).get("content").asText();
        assertThat(answer).startsWith("Here is a plan for your week");
        assertThat(blocks).contains(answer);
        assertThat(types(messages).stream().filter("human"::equals)).as("the turn was not started again").hasSize(1);
    }

    private static List<String> types(JsonNode messages) {
        List<String> out = new ArrayList<>();
        messages.forEach(m -> out.add(m.get("type").asText()));
        return out;
    }

    private static void report(String transport, long sigterm, long toldAt, long resumedAt) throws Exception {
        String line = String.format("drain over %s: SIGTERM to the reconnect event %d ms (the step in flight finishing), "
                        + "reconnect event to the first event of the resumed run on the other replica %d ms, SIGTERM to resumed %d ms%n",
                transport, (toldAt - sigterm) / 1_000_000, (resumedAt - toldAt) / 1_000_000, (resumedAt - sigterm) / 1_000_000);
        System.out.print(line);
        Files.writeString(Path.of("target", "drain-times.txt"), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** The thread protocol's commands of this test. */
    private static final class JsonFor {
        static String runStart(int id) {
            return "{\"id\":" + id + ",\"method\":\"run.start\",\"params\":{\"assistant_id\":\"agent\",\"input\":{\"messages\":"
                    + "[{\"role\":\"user\",\"content\":\"" + PROMPT + "\"}]}}}";
        }
    }
}
