package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.WebSocketFrames;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A replay gives exactly what live delivery gave, byte for byte, in each format: the log keeps a run's typed entries
 * and translates them again for a replay, so any state a translator takes from the clock or from its subscribers
 * would show here. Classic SSE (a join after the run, whole and after a {@code Last-Event-ID}), the thread protocol
 * over HTTP (a second stream, whole and after {@code since}) and over WebSocket (a second socket's subscribe).
 */
@QuarkusTest
@Timeout(120) // a guard against a hang, not a timing assertion
class ReplayIsLiveTest {

    private static final String ALL_CHANNELS = "[\"lifecycle\",\"messages\",\"values\",\"updates\",\"tools\",\"checkpoints\",\"tasks\",\"custom\",\"input\"]";

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** An SSE body's frames, heartbeat comments left out. */
    private static List<String> frames(String body) {
        List<String> out = new ArrayList<>();
        for (String f : body.split("\n\n")) {
            String kept = f.lines().filter(l -> !l.startsWith(":")).reduce((a, b) -> a + "\n" + b).orElse("");
            if (!kept.isEmpty()) {
                out.add(kept);
            }
        }
        return out;
    }

    private static String id(String frame) {
        return frame.lines().filter(l -> l.startsWith("id: ")).map(l -> l.substring(4)).findFirst().orElse(null);
    }

    @Test
    void theClassicStreamReplaysWhatItSentLive() throws Exception {
        String thread = UUID.randomUUID().toString();
        assertThat(post("/threads", "{\"thread_id\":\"" + thread + "\"}").statusCode()).isEqualTo(200);
        String modes = "[\"values\",\"messages-tuple\",\"messages\",\"updates\",\"custom\",\"events\",\"tasks\",\"checkpoints\",\"debug\"]";
        HttpResponse<String> live = post("/threads/" + thread + "/runs/stream", "{\"assistant_id\":\"agent\",\"input\":{\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"hello\"}]},\"stream_mode\":" + modes + "}");
        assertThat(live.statusCode()).isEqualTo(200);
        List<String> sent = frames(live.body());
        assertThat(sent.get(sent.size() - 1)).startsWith("event: end");
        assertThat(sent).anyMatch(f -> f.startsWith("event: messages\n")).anyMatch(f -> f.startsWith("event: debug"))
                .anyMatch(f -> f.startsWith("event: messages/partial")).anyMatch(f -> f.startsWith("event: messages/complete"));
        String runId = JsonCodec.MAPPER.readTree(sent.get(0).lines().filter(l -> l.startsWith("data: ")).findFirst().orElseThrow().substring(6))
                .get("run_id").asText();
        String query = "?stream_mode=values&stream_mode=messages-tuple&stream_mode=messages&stream_mode=updates&stream_mode=custom&stream_mode=events"
                + "&stream_mode=tasks&stream_mode=checkpoints&stream_mode=debug";
        String join = "/threads/" + thread + "/runs/" + runId + "/stream" + query;

        HttpResponse<String> again = http.send(HttpRequest.newBuilder(uri(join)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(frames(again.body())).isEqualTo(sent);

        int cut = sent.size() / 2;
        while (id(sent.get(cut)) == null) {
            cut++;
        }
        HttpResponse<String> rest = http.send(HttpRequest.newBuilder(uri(join)).header("Last-Event-ID", id(sent.get(cut))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(frames(rest.body())).isEqualTo(sent.subList(cut + 1, sent.size()));
    }

    @Test
    void theProtocolOverHttpReplaysWhatItSentLive() throws Exception {
        String thread = UUID.randomUUID().toString();
        Iterator<String> live = events(thread, null);
        HttpResponse<String> started = post("/threads/" + thread + "/commands", "{\"id\":1,\"method\":\"run.start\",\"params\":"
                + "{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}}}");
        assertThat(started.statusCode()).isEqualTo(200);
        List<String> sent = untilRootEnd(live);
        assertThat(sent.size()).isGreaterThan(10);

        assertThat(untilRootEnd(events(thread, null))).isEqualTo(sent);
        int cut = sent.size() / 2;
        assertThat(untilRootEnd(events(thread, Long.parseLong(id(sent.get(cut)))))).isEqualTo(sent.subList(cut + 1, sent.size()));
    }

    @Test
    void theProtocolOverWebSocketReplaysWhatItSentLive() throws Exception {
        String thread = UUID.randomUUID().toString();
        Socket live = new Socket(thread);
        live.subscribe();
        HttpResponse<String> started = post("/threads/" + thread + "/commands", "{\"id\":1,\"method\":\"run.start\",\"params\":"
                + "{\"assistant_id\":\"agent\",\"input\":{\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}}}");
        assertThat(started.statusCode()).isEqualTo(200);
        List<String> sent = live.untilRootEnd();
        assertThat(sent.size()).isGreaterThan(10);

        Socket later = new Socket(thread);
        later.subscribe();
        assertThat(later.untilRootEnd()).isEqualTo(sent);
        live.close();
        later.close();
    }

    private Iterator<String> events(String thread, Long since) throws Exception {
        String body = "{\"channels\":" + ALL_CHANNELS + (since == null ? "" : ",\"since\":" + since) + "}";
        HttpResponse<Stream<String>> sse = http.send(HttpRequest.newBuilder(uri("/threads/" + thread + "/stream/events"))
                .header("content-type", "application/json").header("accept", "text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(sse.statusCode()).isEqualTo(200);
        return sse.body().iterator();
    }

    /** The frames of an open protocol stream, read until the root lifecycle's terminal event. */
    private static List<String> untilRootEnd(Iterator<String> lines) throws Exception {
        List<String> frames = new ArrayList<>();
        StringBuilder frame = new StringBuilder();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith(":")) {
                continue;
            }
            if (!line.isEmpty()) {
                frame.append(frame.isEmpty() ? "" : "\n").append(line);
                continue;
            }
            if (frame.isEmpty()) {
                continue;
            }
            String f = frame.toString();
            frame.setLength(0);
            frames.add(f);
            String data = f.lines().filter(l -> l.startsWith("data: ")).findFirst().orElse("data: {}").substring(6);
            if (rootEnd(data)) {
                return frames;
            }
        }
        throw new AssertionError("the stream ended before the run did");
    }

    private static boolean rootEnd(String eventJson) throws Exception {
        JsonNode e = JsonCodec.MAPPER.readTree(eventJson);
        return "lifecycle".equals(e.path("method").asText()) && e.path("params").path("namespace").isEmpty()
                && !"running".equals(e.path("params").path("data").path("event").asText());
    }

    /** A thread protocol socket: its event messages, as sent (the shared {@link WebSocketFrames} listener). */
    private final class Socket {
        private final WebSocketFrames frames = new WebSocketFrames();
        private final WebSocket ws;

        Socket(String thread) throws Exception {
            ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://localhost:" + port + "/threads/" + thread + "/stream/events"), frames)
                    .get(30, TimeUnit.SECONDS);
        }

        void subscribe() throws Exception {
            ws.sendText("{\"id\":1,\"method\":\"subscription.subscribe\",\"params\":{\"channels\":" + ALL_CHANNELS + "}}", true).get();
            String answer = frames.texts.poll(30, TimeUnit.SECONDS);
            assertThat(answer).contains("\"type\":\"success\"");
        }

        List<String> untilRootEnd() throws Exception {
            List<String> events = new ArrayList<>();
            while (true) {
                String m = frames.texts.poll(60, TimeUnit.SECONDS);
                assertThat(m).as("a message before the run's end").isNotNull();
                events.add(m);
                if (rootEnd(m)) {
                    return events;
                }
            }
        }

        void close() {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }
    }
}
