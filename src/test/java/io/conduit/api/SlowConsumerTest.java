package io.conduit.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that stops reading beside one that keeps up, on the same run, over real sockets: the slow one's text
 * deltas are merged, then it is dropped with {@code slow_consumer}; the fast one gets every event; the slow one
 * reconnects with {@code Last-Event-ID} and gets the rest, every character exactly once. Asserted on the events,
 * never on time. The server's kernel send buffer is fixed small ({@link SmallSocketBuffers}) so that the slow
 * client fills the server's write queue after a few kilobytes; the model is paced lightly (2 ms a token) so that
 * the fast reader is never behind by the first bound (64 KB, some 120 events) even on a busy machine.
 */
@QuarkusTest
@TestProfile(SmallOutboxes.class)
class SlowConsumerTest {

    @RegisterExtension
    static final BlockedThreadWarnings EVENT_LOOPS = new BlockedThreadWarnings();

    @BeforeEach
    void warmUp() {
        String thread = Api.newThread("warm");
        try (SseClient c = SseClient.post("/threads/" + thread + "/runs/stream", Api.json(Api.run("hello", "stream_mode", List.of("messages-tuple"))))) {
            c.toEnd(Duration.ofMinutes(1));
        }
        EVENT_LOOPS.watch();
    }

    @Test
    void theSlowClientIsMergedThenDroppedTheFastOneGetsEverythingAndTheSlowOneResumesExactlyOnce() throws IOException {
        String thread = Api.newThread("slow");
        String body = Api.json(Api.run(Api.SLOW, "stream_mode", List.of("messages-tuple")));
        try (Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096); // before connecting: the window it announces stays small
            slow.connect(new InetSocketAddress("localhost", RestAssured.port));
            OutputStream out = slow.getOutputStream();
            out.write(("POST /threads/" + thread + "/runs/stream HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = slow.getInputStream();
            String head = headers(in);
            assertThat(head).startsWith("HTTP/1.1 200");
            String run = header(head, "Content-Location").replaceAll(".*/runs/", "");
            // the slow client reads nothing more until the run is over

            List<SseClient.Sse> fast;
            try (SseClient f = SseClient.get("/threads/" + thread + "/runs/" + run + "/stream")) {
                fast = f.toEnd(Duration.ofMinutes(3));
            }
            assertThat(fast).extracting(SseClient.Sse::event).doesNotContain("error").endsWith("end");
            assertThat(fast).extracting(SseClient.Sse::id).isSorted().doesNotHaveDuplicates();
            assertThat(fast.stream().filter(e -> e.event().equals("messages")).count()).isGreaterThan(1500);

            // every event, each as it was written: the same as a replay of the whole run from the log
            List<SseClient.Sse> replay;
            try (SseClient r = SseClient.get("/threads/" + thread + "/runs/" + run + "/stream")) {
                replay = r.toEnd(Duration.ofMinutes(1));
            }
            assertThat(fast).isEqualTo(replay);

            // now the slow one reads: what its socket held, then the error (its merged events were dropped with it)
            List<SseClient.Sse> before = SseClient.parse(dechunk(in));
            SseClient.Sse last = before.get(before.size() - 1);
            assertThat(last.event()).isEqualTo("error");
            assertThat(last.id()).isEqualTo(-1); // no id: the client's Last-Event-ID stays on what it received
            assertThat(last.data().path("error").asText()).isEqualTo("slow_consumer");
            Matcher merged = Pattern.compile("after coalescing (\\d+) text deltas").matcher(last.data().path("message").asText());
            assertThat(merged.find()).as(last.data().toString()).isTrue();
            assertThat(Long.parseLong(merged.group(1))).as("text deltas merged before the drop").isPositive();
            List<SseClient.Sse> received = before.subList(0, before.size() - 1);
            assertThat(received).isNotEmpty();
            assertThat(received).extracting(SseClient.Sse::id).isSorted().doesNotHaveDuplicates();
            long lastId = received.get(received.size() - 1).id();
            assertThat(lastId).isLessThan(fast.get(fast.size() - 1).id());

            List<SseClient.Sse> after;
            try (SseClient again = SseClient.get("/threads/" + thread + "/runs/" + run + "/stream", lastId)) {
                after = again.toEnd(Duration.ofMinutes(1));
            }
            assertThat(after).extracting(SseClient.Sse::event).doesNotContain("error").endsWith("end");
            assertThat(after.get(0).id()).isGreaterThan(lastId);
            List<SseClient.Sse> resumed = new ArrayList<>(received);
            resumed.addAll(after);
            assertThat(texts(resumed)).isEqualTo(texts(fast));

            String answer = Api.contents(Api.state(thread).path("values")).getLast();
            assertThat(texts(fast)).containsValue(answer);
        }
    }

    /** Each message's text, by message id, as a client assembles it from the chunks. */
    private static Map<String, String> texts(List<SseClient.Sse> events) {
        Map<String, String> out = new LinkedHashMap<>();
        for (SseClient.Sse e : events) {
            if (e.event().equals("messages")) {
                JsonNode m = e.data().get(0);
                out.merge(m.path("id").asText(), m.path("content").asText(), String::concat);
            }
        }
        return out;
    }

    private static String headers(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            b.write(c);
            String s = b.toString(StandardCharsets.ISO_8859_1);
            if (s.endsWith("\r\n\r\n")) {
                return s;
            }
        }
        throw new IOException("the connection closed in the headers: " + b);
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            if (line.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + head);
    }

    /** The body of a chunked response, to its last chunk. */
    private static String dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String size = line(in);
            int n = Integer.parseInt(size.split(";")[0].trim(), 16);
            if (n == 0) {
                line(in);
                return body.toString(StandardCharsets.UTF_8);
            }
            body.write(in.readNBytes(n));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c == -1) {
                throw new IOException("the connection closed mid-response");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }
}
