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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of the packaged app on one PostgreSQL database: a run executes on the owner, and a client of the other
 * replica follows it, joins it, and replays it, over the classic stream and the thread protocol (WebSocket and SSE).
 * The frames it gets are the owner's own, byte for byte: the owner translated them once and relayed them through
 * the database, because the other replica's client watched the thread.
 */
class CrossReplicaStreamTest {

    private static final String DB = "cross";
    private static final String MODES = "?stream_mode=%5B%22messages-tuple%22%2C%22values%22%5D";
    private static final List<PackagedApp> APPS = new ArrayList<>();
    private static String owner;
    private static String other;
    private static int ownerPort;

    @BeforeAll
    static void startReplicas() throws Exception {
        ownerPort = PackagedApp.freePort();
        // the owner writes its frames a second after the first of a batch: a join on the other replica finds the run
        // ended (its record) well before its frames, as it does on an overloaded machine, and must wait for them
        PackagedApp a = app(ownerPort, "1s");
        PackagedApp b = app(PackagedApp.freePort(), "0ms");
        owner = a.base();
        other = b.base();
        a.start("owner");
        b.start("other");
    }

    @AfterAll
    static void stopReplicas() {
        APPS.forEach(PackagedApp::close);
    }

    private static PackagedApp app(int port, String frameLinger) throws Exception {
        PackagedApp a = new PackagedApp(DB, port, "cross-replica", Map.of(
                "conduit.llm.provider", "simulated",
                "conduit.cluster.frame-linger", frameLinger,
                "conduit.simulator.time-to-first-token", "100ms",
                "conduit.simulator.inter-token-delay", "40ms",
                "conduit.runs.poll-interval", "200ms",
                "conduit.runs.lease", "10m"));
        APPS.add(a);
        return a;
    }

    /** A turn streamed by a client of the owner, which executes it. */
    private record Turn(String thread, String runId, SseReader stream) {
    }

    private static Turn turnOnOwner() throws Exception {
        int attempts = 0;
        while (true) { // the owner almost always claims what was created on it; if the other replica did, start again
            assertThat(attempts++).as("attempts to run the turn on the owner").isLessThan(5);
            String thread = thread();
            SseReader first = DrainClients.sse(post(owner + "/threads/" + thread + "/runs/stream", Map.of("assistant_id", "agent",
                    "stream_mode", List.of("messages-tuple", "values"),
                    "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week"))))).build());
            String runId = first.response.headers().firstValue("Content-Location").orElseThrow().replaceAll(".*/", "");
            if (heldOnOwner(runId, first)) {
                return new Turn(thread, runId, first);
            }
        }
    }

    @Test
    void aJoinOnTheOtherReplicaGetsTheOwnersFramesAndItsReplayTheSame() throws Exception {
        Turn turn = turnOnOwner();
        String thread = turn.thread();
        String runId = turn.runId();
        SseReader first = turn.stream();
        List<Sse> atOwner = new ArrayList<>();
        DrainClients.untilTokens(first, atOwner, 2);

        List<Sse> joined = new ArrayList<>();
        try (SseReader join = DrainClients.sse(get(other + "/threads/" + thread + "/runs/" + runId + "/stream" + MODES, null))) {
            assertThat(DrainClients.readToEnd(join, joined).event()).isEqualTo("end");
        }
        assertThat(DrainClients.readToEnd(first, atOwner).event()).isEqualTo("end");
        assertThat(frames(joined)).as("the join on the other replica: every frame the owner's client got")
                .isEqualTo(frames(atOwner)).hasSizeGreaterThan(5);

        long middle = atOwner.get(atOwner.size() / 2).id();
        List<Sse> replayed = new ArrayList<>();
        try (SseReader replay = DrainClients.sse(get(other + "/threads/" + thread + "/runs/" + runId + "/stream" + MODES, middle))) {
            DrainClients.readToEnd(replay, replayed);
        }
        assertThat(frames(replayed)).as("a replay after Last-Event-ID on the other replica")
                .isEqualTo(frames(atOwner.stream().filter(e -> e.id() > middle).toList()));
    }

    @Test
    void aJoinOfAFinishedRunOnAReplicaThatNeverWatchedItGetsTheOwnersReplay() throws Exception {
        Turn turn = turnOnOwner();
        List<Sse> atOwner = new ArrayList<>();
        assertThat(DrainClients.readToEnd(turn.stream(), atOwner).event()).isEqualTo("end");
        List<Sse> late = new ArrayList<>();
        try (SseReader join = DrainClients.sse(get(other + "/threads/" + turn.thread() + "/runs/" + turn.runId() + "/stream" + MODES, null))) {
            assertThat(DrainClients.readToEnd(join, late).event()).isEqualTo("end");
        }
        assertThat(frames(late)).as("a late join elsewhere, within the replay retention: the owner's frames")
                .isEqualTo(frames(atOwner));
    }

    @Test
    void anAiSdkResumeOnTheOtherReplicaGetsTheOwnersUiStream() throws Exception {
        String chat = "cross-chat-" + UUID.randomUUID();
        List<Sse> atOwner = new ArrayList<>();
        try (SseReader first = DrainClients.sse(post(owner + "/ai-sdk/chat", "{\"id\":\"" + chat + "\",\"trigger\":\"submit-message\","
                + "\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"Please plan my week\"}]}]}").build())) {
            Sse e;
            while (atOwner.stream().filter(x -> x.data().contains("\"text-delta\"")).count() < 2 && (e = first.next()) != null) {
                atOwner.add(e);
            }
            List<Sse> resumed = new ArrayList<>();
            try (SseReader resume = DrainClients.sse(get(other + "/ai-sdk/chat/" + chat + "/stream", null))) {
                DrainClients.readToEnd(resume, resumed);
            }
            DrainClients.readToEnd(first, atOwner);
            assertThat(resumed.stream().map(Sse::data).toList()).as("the resume on the other replica: the owner's UI stream")
                    .isEqualTo(atOwner.stream().map(Sse::data).toList());
            assertThat(atOwner.getLast().data()).isEqualTo("[DONE]");
        }
    }

    @Test
    void aCancelOnTheOtherReplicaStopsTheRunWhereItExecutes() throws Exception {
        Turn turn = turnOnOwner();
        DrainClients.untilTokens(turn.stream(), new ArrayList<>(), 1);
        JsonNode cancelled = send("POST", other + "/threads/" + turn.thread() + "/runs/" + turn.runId() + "/cancel?wait=1", null);
        assertThat(cancelled.get("status").asText()).as("the run as the cancel's answer: " + cancelled).isEqualTo("interrupted");
        List<Sse> rest = new ArrayList<>();
        Sse last = DrainClients.readToEnd(turn.stream(), rest);
        assertThat(last.event()).as("the owner's client is told").isEqualTo("error");
    }

    @Test
    void aNewerRunOnTheOtherReplicaInterruptsTheRunOfItsThreadOnTheOwner() throws Exception {
        Turn turn = turnOnOwner();
        DrainClients.untilTokens(turn.stream(), new ArrayList<>(), 1);
        JsonNode newer = send("POST", other + "/threads/" + turn.thread() + "/runs/wait", Map.of("assistant_id", "agent",
                "multitask_strategy", "interrupt",
                "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Never mind, what is 2+2?")))));
        assertThat(newer.toString()).contains("messages");
        assertThat(DrainClients.readToEnd(turn.stream(), new ArrayList<>()).event()).isEqualTo("error");
        assertThat(send("GET", owner + "/threads/" + turn.thread() + "/runs/" + turn.runId(), null).get("status").asText())
                .isEqualTo("interrupted");
    }

    @Test
    void aThreadProtocolSubscriberOnTheOtherReplicaSeesARunStartedOnTheOwner() throws Exception {
        String thread = thread();
        String subscribe = "{\"id\":1,\"method\":\"subscription.subscribe\",\"params\":{\"channels\":[\"messages\",\"lifecycle\",\"values\"]}}";
        Socket atOwner = Socket.open(owner.replace("http:", "ws:") + "/threads/" + thread + "/stream/events");
        Socket atOther = Socket.open(other.replace("http:", "ws:") + "/threads/" + thread + "/stream/events");
        atOwner.command(subscribe);
        atOther.command(subscribe);
        assertThat(atOwner.next().json().path("id").asInt()).isEqualTo(1);
        assertThat(atOther.next().json().path("id").asInt()).isEqualTo(1);
        try (SseReader sseAtOther = DrainClients.sse(post(other + "/threads/" + thread + "/stream/events",
                "{\"channels\":[\"messages\",\"lifecycle\",\"values\"]}").build())) {
            JsonNode started = send("POST", owner + "/threads/" + thread + "/commands", "{\"id\":7,\"method\":\"run.start\",\"params\":"
                    + "{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"Please plan my week\"}]}}}");
            String runId = started.path("result").path("run_id").asText();
            assertThat(runId).as(started.toString()).isNotEmpty();
            List<JsonNode> owners = untilCompleted(atOwner);
            List<JsonNode> others = untilCompleted(atOther);
            assertThat(others).as("the other replica's WebSocket: the owner's events").isEqualTo(owners).hasSizeGreaterThan(5);
            List<JsonNode> overSse = new ArrayList<>();
            Sse e;
            while ((e = sseAtOther.next()) != null) {
                if (e.id() >= 0) {
                    overSse.add(e.json());
                    if (DrainClients.rootCompleted(e.json())) {
                        break;
                    }
                }
            }
            assertThat(overSse).as("the other replica's SSE: the owner's events").isEqualTo(owners);
        } finally {
            atOwner.ws.sendClose(1000, "done");
            atOther.ws.sendClose(1000, "done");
        }
    }

    /** The seq'd events of a socket up to the root's completion. */
    private static List<JsonNode> untilCompleted(Socket s) throws InterruptedException {
        List<JsonNode> events = new ArrayList<>();
        Socket.Frame f;
        while ((f = s.next()) != null) {
            if (f.json().has("seq")) {
                events.add(f.json());
                if (DrainClients.rootCompleted(f.json())) {
                    return events;
                }
            }
        }
        throw new AssertionError("the socket closed before the run completed: " + events);
    }

    private static List<String> frames(List<Sse> events) {
        return events.stream().map(e -> e.event() + " " + e.id() + " " + e.data()).toList();
    }

    private static HttpRequest get(String url, Long lastEventId) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(DrainClients.WAIT);
        if (lastEventId != null) {
            b.header("Last-Event-ID", Long.toString(lastEventId));
        }
        return b.build();
    }

    private static String thread() throws Exception {
        String thread = "cross-" + UUID.randomUUID();
        send("POST", owner + "/threads", Map.of("thread_id", thread));
        return thread;
    }

    private static boolean heldOnOwner(String runId, SseReader stream) throws Exception {
        if (DrainClients.heldOn(DB, ownerPort, runId)) {
            return true;
        }
        stream.close();
        return false;
    }
}
