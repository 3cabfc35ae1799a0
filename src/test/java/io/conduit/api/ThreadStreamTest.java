package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import io.quarkus.test.junit.QuarkusTest;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code GET /threads/{id}/stream}: a second tab follows every run of a thread as it happens, and one that
 * reconnects with {@code Last-Event-ID} gets exactly what it missed. Ids are unique and increasing across runs.
 */
@QuarkusTest
class ThreadStreamTest {

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    @Test
    @Timeout(120) // a guard against a hang, not a timing assertion
    void aSecondTabSeesEveryRunLiveAndAReconnectGetsExactlyWhatItMissed() throws Exception {
        String thread = given().contentType("application/json").body(Map.of()).when().post("/threads").then().statusCode(200).extract().path("thread_id");
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<Stream<String>> tab = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/threads/" + thread + "/stream"))
                .GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(tab.statusCode()).isEqualTo(200);
        assertThat(tab.headers().firstValue("content-type").orElse("")).contains("text/event-stream");
        Iterator<String> lines = tab.body().iterator();

        Map<String, Object> input = Map.of("messages", List.of(Map.of("role", "user", "content", "hi")));
        for (int turn = 0; turn < 2; turn++) {
            given().contentType("application/json").body(Map.of("assistant_id", "agent", "input", input))
                    .when().post("/threads/{t}/runs/wait", thread).then().statusCode(200);
        }
        List<long[]> seen = new ArrayList<>(); // {id, is-end}
        List<String> names = new ArrayList<>();
        int ends = 0;
        String event = null;
        while (ends < 2 && lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("id: ")) {
                long id = Long.parseLong(line.substring(4));
                seen.add(new long[]{id, "end".equals(event) ? 1 : 0});
                names.add(event);
                if ("end".equals(event)) {
                    ends++;
                }
            }
        }
        tab.body().close();
        assertThat(names.stream().filter("metadata"::equals)).hasSize(2);
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i)[0]).isGreaterThan(seen.get(i - 1)[0]);
        }
        // reconnect after the first run's end: the second run again, exactly
        long firstEnd = seen.stream().filter(s -> s[1] == 1).findFirst().orElseThrow()[0];
        List<Long> expected = seen.stream().map(s -> s[0]).filter(id -> id > firstEnd).toList();
        HttpResponse<Stream<String>> again = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/threads/" + thread + "/stream"))
                .header("Last-Event-ID", Long.toString(firstEnd)).GET().build(), HttpResponse.BodyHandlers.ofLines());
        List<Long> replayed = new ArrayList<>();
        Iterator<String> more = again.body().iterator();
        while (replayed.size() < expected.size() && more.hasNext()) {
            String line = more.next();
            if (line.startsWith("id: ")) {
                replayed.add(Long.parseLong(line.substring(4)));
            }
        }
        again.body().close();
        assertThat(replayed).isEqualTo(expected);
        given().when().get("/threads/{t}/stream", "no-such-thread").then().statusCode(404);

        // a copy starts where the thread is, with its own id
        String copy = given().when().post("/threads/{t}/copy", thread).then().statusCode(200)
                .body("values.messages.size()", org.hamcrest.Matchers.greaterThan(3)).extract().path("thread_id");
        assertThat(copy).isNotEqualTo(thread);
        given().when().get("/threads/{t}/state", copy).then().statusCode(200).body("values.messages.size()", org.hamcrest.Matchers.greaterThan(3));
        given().when().post("/threads/{t}/copy", "no-such-thread").then().statusCode(404);
    }
}
