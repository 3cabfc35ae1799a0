package io.conduit.http;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Every front door fed bodies and frames no client should send ({@link FuzzBodies}, seeded: {@code -Dfuzz.seed},
 * {@code -Dfuzz.requests}, {@code -Dfuzz.seconds}): each is refused with a 4xx and a machine-readable code (or, on a WebSocket, an error frame or
 * a close code), never a 5xx or a stack trace; a refused run request writes no run; no run is left unfinished; and the
 * service still answers afterwards.
 */
@QuarkusTest
class FrontDoorFuzzTest {

    static final long SEED = Long.getLong("fuzz.seed", 20261126L);
    static final int REQUESTS = Integer.getInteger("fuzz.requests", 300);
    /** A bound on the HTTP part's time, whatever the machine: what was sent by then is checked. */
    static final Duration BUDGET = Duration.ofSeconds(Long.getLong("fuzz.seconds", 90));
    static final String TURN = "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
    static final Set<String> ENDED = Set.of("success", "error", "interrupted", "timeout");

    @ConfigProperty(name = "quarkus.http.test-port")
    int port;

    record Door(String method, String path, String body, boolean runOfT) {
    }

    private static List<Door> doors(String t) {
        String run = "{\"assistant_id\":\"agent\",\"input\":" + TURN + ",\"multitask_strategy\":\"enqueue\",\"stream_mode\":[\"values\"]}";
        return List.of(
                new Door("POST", "/threads", "{\"metadata\":{\"k\":\"v\"},\"if_exists\":\"do_nothing\"}", false),
                new Door("POST", "/threads/search", "{\"limit\":10,\"metadata\":{\"k\":\"v\"},\"sort_by\":\"created_at\"}", false),
                new Door("POST", "/threads/count", "{\"metadata\":{\"k\":\"v\"}}", false),
                new Door("PATCH", "/threads/" + t, "{\"metadata\":{\"k\":\"v\"}}", false),
                new Door("POST", "/threads/" + t + "/history", "{\"limit\":5,\"before\":null}", false),
                new Door("POST", "/threads/" + t + "/runs", run, true),
                new Door("POST", "/threads/" + t + "/runs/stream", run, true),
                new Door("POST", "/threads/" + t + "/runs/wait", run, true),
                new Door("POST", "/assistants/search", "{\"limit\":5,\"graph_id\":\"agent\"}", false),
                new Door("POST", "/store/items/search", "{\"namespace_prefix\":[\"fuzz\"],\"limit\":5}", false),
                new Door("PUT", "/store/items", "{\"namespace\":[\"fuzz\"],\"key\":\"k\",\"value\":{\"a\":1}}", false),
                new Door("POST", "/threads/fuzz-" + UUID.randomUUID() + "/commands",
                        "{\"id\":1,\"method\":\"state.get\",\"params\":{\"namespace\":[]}}", false),
                new Door("POST", "/ag-ui", "{\"threadId\":\"fuzz-ag\",\"runId\":\"r1\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\","
                        + "\"content\":\"hi\"}],\"tools\":[],\"context\":[],\"state\":{},\"forwardedProps\":{}}", false),
                new Door("POST", "/ai-sdk/chat", "{\"id\":\"fuzz-chat\",\"messages\":[{\"id\":\"m1\",\"role\":\"user\",\"parts\":"
                        + "[{\"type\":\"text\",\"text\":\"hi\"}]}]}", false),
                new Door("POST", "/v1/chat/completions", "{\"model\":\"agent\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", false),
                new Door("POST", "/mcp", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"agent\",\"arguments\":{\"input\":\"hi\"}}}", false));
    }

    @Test
    void badBodiesAreRefusedWithACodeAndWriteNothing() {
        String t = given().contentType("application/json").body("{}").when().post("/threads").then().statusCode(200)
                .extract().path("thread_id");
        List<Door> doors = doors(t);
        FuzzBodies bodies = new FuzzBodies(SEED);
        int runsOfT = 0;
        List<String> refusedWithoutCode = new ArrayList<>();
        Instant stop = Instant.now().plus(BUDGET);
        for (int i = 0; i < REQUESTS && Instant.now().isBefore(stop); i++) {
            Door d = doors.get(bodies.nextInt(doors.size()));
            byte[] body = bodies.of(d.body());
            Response r = given().contentType("application/json").body(body).when().request(d.method(), d.path());
            int status = r.statusCode();
            String text = r.asString();
            String what = "seed " + SEED + " request " + i + ": " + d.method() + " " + d.path() + " -> " + status + " "
                    + text.substring(0, Math.min(300, text.length()));
            assertThat(status).as(what).isLessThan(500);
            assertThat(text).as(what).doesNotContain("Exception").doesNotContain("\tat ");
            if (status >= 400) {
                if (!hasCode(text)) {
                    refusedWithoutCode.add(what);
                }
            } else if (d.runOfT()) {
                runsOfT++;
            }
        }
        assertThat(refusedWithoutCode).as("refusals without a machine-readable code").isEmpty();
        // nothing but the accepted requests wrote a run, and every run ends
        List<JsonNode> runs = runsOf(t);
        assertThat(runs).hasSize(runsOfT);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
        while (!runsOf(t).stream().allMatch(run -> ENDED.contains(run.path("status").asText())) && Instant.now().isBefore(deadline)) {
            Thread.onSpinWait();
        }
        assertThat(runsOf(t)).as("no run is left unfinished").allSatisfy(run -> assertThat(ENDED).contains(run.path("status").asText()));
        given().when().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void badFramesGetAnErrorOrACloseCodeAndTheSocketEndpointStillAnswers() throws Exception {
        FuzzBodies frames = new FuzzBodies(SEED + 1);
        String command = "{\"id\":1,\"method\":\"run.start\",\"params\":{\"assistant_id\":\"agent\",\"input\":" + TURN + "}}";
        String thread = "fuzz-ws-" + UUID.randomUUID();
        Socket socket = Socket.open(port, thread);
        int answered = 0;
        for (int i = 0; i < Math.max(20, REQUESTS / 10); i++) {
            byte[] frame = frames.of(command);
            String outcome = socket.send(frame, frames.nextInt(4) == 0);
            assertThat(outcome).as("seed " + (SEED + 1) + " frame " + i).matches("error .+|close (1003|1007|1009|4\\d\\d\\d)|success");
            answered++;
            if (outcome.startsWith("close")) {
                socket = Socket.open(port, thread);
            }
        }
        assertThat(answered).isPositive();
        // a good command still works
        assertThat(socket.send("{\"id\":2,\"method\":\"state.get\",\"params\":{\"namespace\":[]}}".getBytes(StandardCharsets.UTF_8), false))
                .isIn("success", "error not_found");
        socket.close();
        given().when().get("/q/health/ready").then().statusCode(200);
    }

    private static boolean hasCode(String text) {
        try {
            JsonNode j = JsonCodec.MAPPER.readTree(text);
            if (j.path("jsonrpc").asText().equals("2.0")) {
                return j.path("error").path("code").isInt(); // MCP's JSON-RPC errors: the specification's numeric codes
            }
            JsonNode code = j.has("error") && j.get("error").isObject() ? j.get("error").path("code").isTextual()
                    ? j.get("error").get("code") : j.get("error").path("type") : j.path("code");
            return code.isTextual() && !code.asText().isBlank();
        } catch (Exception e) {
            return false;
        }
    }

    private static List<JsonNode> runsOf(String thread) {
        String json = given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().asString();
        List<JsonNode> out = new ArrayList<>();
        try {
            JsonCodec.MAPPER.readTree(json).forEach(out::add);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** A thread-protocol WebSocket, one frame and its answer at a time. */
    private static final class Socket implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private volatile CompletableFuture<String> next = new CompletableFuture<>();
        private WebSocket ws;

        static Socket open(int port, String thread) throws Exception {
            Socket s = new Socket();
            s.ws = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://localhost:" + port + "/threads/" + thread + "/stream/events"), s).get(20, TimeUnit.SECONDS);
            return s;
        }

        /** Sends a frame (text, or binary when asked) and says what came back: {@code error <code>}, {@code close <code>} or {@code success}. */
        String send(byte[] frame, boolean binary) throws Exception {
            next = new CompletableFuture<>();
            if (binary) {
                ws.sendBinary(ByteBuffer.wrap(frame), true);
            } else {
                // the JDK client sends text only as a Java string: bytes that are not UTF-8 go as what they decode to
                ws.sendText(new String(frame, StandardCharsets.UTF_8), true);
            }
            return next.get(30, TimeUnit.SECONDS);
        }

        void close() {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "done");
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                String message = text.toString();
                text.setLength(0);
                try {
                    JsonNode j = JsonCodec.MAPPER.readTree(message);
                    String type = j.path("type").asText();
                    if (type.equals("error")) {
                        next.complete("error " + j.path("error").asText());
                    } else if (type.equals("success")) {
                        next.complete("success");
                    }
                } catch (Exception e) {
                    next.complete("unreadable " + message);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            next.complete("close " + statusCode);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            next.complete("failed " + error);
        }
    }
}
