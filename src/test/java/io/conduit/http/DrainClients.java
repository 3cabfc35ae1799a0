package io.conduit.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The clients of {@link ReplicaDrainTest}, as an SDK reads each transport: an SSE stream read event by event (each
 * with the time it arrived, its {@code id:} and {@code retry:}), and a WebSocket whose frames and close code are kept.
 */
final class DrainClients {

    static final Duration WAIT = Duration.ofSeconds(90);
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    private DrainClients() {
    }

    /** One SSE event as it arrived; {@code id} -1 when it had none. */
    record Sse(String event, long id, String data, Long retry, long atNanos) {
        JsonNode json() {
            try {
                return JsonCodec.MAPPER.readTree(data);
            } catch (Exception e) {
                throw new AssertionError("not JSON: " + data, e);
            }
        }
    }

    /** An SSE response read one event at a time; {@link #next} is null at the stream's end. */
    static final class SseReader implements AutoCloseable {
        final HttpResponse<java.util.stream.Stream<String>> response;
        private final Iterator<String> lines;

        SseReader(HttpResponse<java.util.stream.Stream<String>> response) {
            this.response = response;
            this.lines = response.body().iterator();
        }

        Sse next() {
            String event = "message";
            long id = -1;
            Long retry = null;
            StringBuilder data = new StringBuilder();
            boolean any = false;
            while (lines.hasNext()) {
                String line = lines.next();
                if (line.isEmpty()) {
                    if (any) {
                        return new Sse(event, id, data.toString(), retry, System.nanoTime());
                    }
                    continue;
                }
                if (line.startsWith(":")) {
                    continue; // heartbeat
                }
                any = true;
                String value = line.substring(line.indexOf(':') + 1).stripLeading();
                if (line.startsWith("event:")) {
                    event = value;
                } else if (line.startsWith("id:")) {
                    id = Long.parseLong(value);
                } else if (line.startsWith("retry:")) {
                    retry = Long.parseLong(value);
                } else if (line.startsWith("data:")) {
                    data.append(data.isEmpty() ? "" : "\n").append(value);
                }
            }
            return null;
        }

        @Override
        public void close() {
            response.body().close();
        }
    }

    static SseReader sse(HttpRequest request) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> r = HTTP.send(request, HttpResponse.BodyHandlers.ofLines());
        if (r.statusCode() != 200) {
            throw new AssertionError("HTTP " + r.statusCode() + " from " + request.uri());
        }
        return new SseReader(r);
    }

    static HttpRequest.Builder post(String url, Object body) throws Exception {
        return HttpRequest.newBuilder(URI.create(url)).timeout(WAIT).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body instanceof String s ? s : JsonCodec.MAPPER.writeValueAsString(body)));
    }

    static JsonNode send(String method, String url, Object body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20));
        b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                : b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(
                        body instanceof String s ? s : JsonCodec.MAPPER.writeValueAsString(body)));
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError(method + " " + url + ": " + r.statusCode() + " " + r.body());
        }
        return JsonCodec.MAPPER.readTree(r.body());
    }

    /**
     * Whether the replica on {@code port} holds the run, once a worker has claimed it (the database says: the run's
     * {@code worker_id} is {@code <host>:<port>/<boot>}). Both replicas claim; the one the run was created on almost
     * always first.
     */
    static boolean heldOn(int port, String runId) throws Exception {
        return heldOn("drain", port, runId);
    }

    /** {@link #heldOn(int, String)} on the database of another test ({@link io.conduit.PackagedApp#database}'s suffix). */
    static boolean heldOn(String database, int port, String runId) throws Exception {
        String db = env("CONDUIT_DB_NAME", "test") + "_" + database;
        try (var c = java.sql.DriverManager.getConnection("jdbc:postgresql://" + env("CONDUIT_DB_HOST", "127.0.0.1") + ":"
                + env("CONDUIT_DB_PORT", "5432") + "/" + db, env("CONDUIT_DB_USERNAME", "postgres"), env("CONDUIT_DB_PASSWORD", ""));
             var st = c.prepareStatement("SELECT status, worker_id FROM conduit_runs WHERE run_id = ?")) {
            st.setString(1, runId);
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (System.nanoTime() < deadline) {
                try (var rs = st.executeQuery()) {
                    if (rs.next() && rs.getString("worker_id") != null) {
                        return rs.getString("worker_id").contains(":" + port + "/");
                    }
                }
                Thread.sleep(20);
            }
        }
        throw new AssertionError("run " + runId + " was not claimed within " + WAIT);
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** A WebSocket client: its text frames (with arrival times) and, once closed, its close code and reason. */
    static final class Socket implements WebSocket.Listener {
        record Frame(JsonNode json, long atNanos) {
        }

        final BlockingQueue<Frame> frames = new LinkedBlockingQueue<>();
        final CompletableFuture<String> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        WebSocket ws;

        static Socket open(String wsUrl, String... subprotocols) throws Exception {
            Socket s = new Socket();
            WebSocket.Builder b = HTTP.newWebSocketBuilder();
            if (subprotocols.length > 0) {
                b.subprotocols(subprotocols[0], java.util.Arrays.copyOfRange(subprotocols, 1, subprotocols.length));
            }
            s.ws = b.buildAsync(URI.create(wsUrl), s).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            return s;
        }

        void command(String json) {
            ws.sendText(json, true).join();
        }

        /** The next frame, or null once the socket is closed and nothing waits. */
        Frame next() throws InterruptedException {
            while (true) {
                Frame f = frames.poll(100, TimeUnit.MILLISECONDS);
                if (f != null) {
                    return f;
                }
                if (closed.isDone() && frames.isEmpty()) {
                    return null;
                }
            }
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                try {
                    frames.add(new Frame(JsonCodec.MAPPER.readTree(partial.toString()), System.nanoTime()));
                } catch (Exception e) {
                    closed.completeExceptionally(e);
                }
                partial.setLength(0);
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(statusCode + " " + reason);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.complete("error " + error);
        }
    }

    /** The {@code text} of a thread-protocol {@code messages} event's text delta, or null. */
    static String textDelta(JsonNode event) {
        JsonNode d = event.path("params").path("data");
        return "content-block-delta".equals(d.path("event").asText()) && "text-delta".equals(d.path("delta").path("type").asText())
                ? d.path("delta").path("text").asText() : null;
    }

    /** The whole text of a thread-protocol {@code content-block-finish} of a text block, or null. */
    static String finishedText(JsonNode event) {
        JsonNode d = event.path("params").path("data");
        return "content-block-finish".equals(d.path("event").asText()) && "text".equals(d.path("content").path("type").asText())
                ? d.path("content").path("text").asText() : null;
    }

    /** Whether it is the root's lifecycle event {@code completed}. */
    static boolean rootCompleted(JsonNode event) {
        return "lifecycle".equals(event.path("method").asText()) && event.path("params").path("namespace").isEmpty()
                && "completed".equals(event.path("params").path("data").path("event").asText());
    }

    // ---- reading until

    static void untilTokens(SseReader r, List<Sse> into, int n) {
        int seen = 0;
        while (seen < n) {
            Sse e = r.next();
            assertThat(e).as("the stream ended before a token").isNotNull();
            into.add(e);
            if (e.event().equals("messages") && !e.json().get(0).path("content").asText().isEmpty()) {
                seen++;
            }
        }
    }

    static void untilDeltas(SseReader r, List<Sse> into, int n) {
        int seen = 0;
        while (seen < n) {
            Sse e = r.next();
            assertThat(e).as("the stream ended before a token").isNotNull();
            into.add(e);
            if (e.id() >= 0 && DrainClients.textDelta(e.json()) != null) {
                seen++;
            }
        }
    }

    static void untilDeltas(Socket s, List<Socket.Frame> into, int n) throws InterruptedException {
        int seen = 0;
        while (seen < n) {
            Socket.Frame f = s.next();
            assertThat(f).as("the socket closed before a token").isNotNull();
            into.add(f);
            if (DrainClients.textDelta(f.json()) != null) {
                seen++;
            }
        }
    }

    /** Reads to the stream's end; returns its last event. */
    static Sse readToEnd(SseReader r, List<Sse> into) {
        Sse e;
        Sse last = null;
        while ((e = r.next()) != null) {
            into.add(e);
            last = e;
        }
        return last;
    }
}
