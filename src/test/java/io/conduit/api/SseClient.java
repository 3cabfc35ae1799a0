package io.conduit.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.restassured.RestAssured;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A client of one SSE response, read as it arrives (rest-assured only reads whole bodies): the test waits for the
 * event it needs, or for the end of the stream, and can hang up mid-stream as a browser tab does.
 */
final class SseClient implements AutoCloseable {

    /** One SSE event: its name, id and JSON data. */
    record Sse(String event, long id, JsonNode data) {
    }

    /** The events of a whole SSE body (frames with {@code event:}; comments and empty frames skipped). */
    static List<Sse> parse(String body) throws IOException {
        List<Sse> out = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            String event = null;
            String data = null;
            long id = -1;
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                } else if (line.startsWith("id: ")) {
                    id = Long.parseLong(line.substring(4));
                }
            }
            if (event != null) {
                out.add(new Sse(event, id, JsonCodec.MAPPER.readTree(data)));
            }
        }
        return out;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Sse EOF = new Sse("<eof>", -1, null);

    final HttpResponse<InputStream> response;
    private final LinkedBlockingQueue<Sse> queue = new LinkedBlockingQueue<>();
    private final List<Sse> seen = new ArrayList<>();
    private final CompletableFuture<Void> closed = new CompletableFuture<>();

    private SseClient(HttpResponse<InputStream> response) {
        this.response = response;
        if (response.headers().firstValue("Content-Type").orElse("").contains("text/event-stream")) {
            Thread reader = new Thread(this::read, "sse-client");
            reader.setDaemon(true);
            reader.start();
        } else {
            closed.complete(null);
        }
    }

    static SseClient post(String path, String json) {
        return open(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    static SseClient get(String path) {
        return open(HttpRequest.newBuilder(uri(path)).GET().build());
    }

    /** A reconnection: GET with {@code Last-Event-ID}. */
    static SseClient get(String path, long lastEventId) {
        return open(HttpRequest.newBuilder(uri(path)).header("Last-Event-ID", Long.toString(lastEventId)).GET().build());
    }

    private static URI uri(String path) {
        return URI.create("http://localhost:" + RestAssured.port + path);
    }

    private static SseClient open(HttpRequest request) {
        try {
            return new SseClient(HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    int status() {
        return response.statusCode();
    }

    /** The body of a response that is not a stream (an error). */
    JsonNode json() {
        try (InputStream in = response.body()) {
            return JsonCodec.MAPPER.readTree(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String event = null;
            String data = null;
            long id = -1;
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isEmpty()) {
                    if (event != null) {
                        queue.add(new Sse(event, id, JsonCodec.MAPPER.readTree(data)));
                    }
                    event = null;
                    data = null;
                    id = -1;
                } else if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data = line.substring(6);
                } else if (line.startsWith("id: ")) {
                    id = Long.parseLong(line.substring(4));
                }
            }
        } catch (IOException e) {
            // hung up by close(), or the server went away: either way the stream is over
        } finally {
            queue.add(EOF);
            closed.complete(null);
        }
    }

    /** Reads events until one matches; fails when the stream ends first or nothing matches in time. */
    Sse await(Predicate<Sse> wanted, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (true) {
                Sse e = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("no matching event within " + within + "; seen " + names());
                }
                if (e == EOF) {
                    queue.add(EOF);
                    throw new AssertionError("the stream ended without a matching event; seen " + names());
                }
                seen.add(e);
                if (wanted.test(e)) {
                    return e;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Every event until the server ends the stream (including those read by {@link #await}). */
    List<Sse> toEnd(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        try {
            while (true) {
                Sse e = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (e == null) {
                    throw new AssertionError("the stream did not end within " + within + "; seen " + names());
                }
                if (e == EOF) {
                    queue.add(EOF);
                    return List.copyOf(seen);
                }
                seen.add(e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private List<String> names() {
        return seen.stream().map(Sse::event).toList();
    }

    /** Hangs up. */
    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
