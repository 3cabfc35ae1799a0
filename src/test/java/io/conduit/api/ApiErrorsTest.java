package io.conduit.api;

import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.join;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.oneOf;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every error status docs/api.md lists, in the one error shape {@code {detail, code}}, on the REST resources and on
 * the streaming routes alike; and what a refused request leaves behind: nothing.
 */
@QuarkusTest
@TestProfile(RunLifecycleOnPostgresTest.SlowModel.class)
class ApiErrorsTest {

    /** Just over {@code conduit.api.max-body-bytes} (1 MiB): valid JSON, so only its size is wrong. */
    private static final String HUGE = "{\"metadata\":{\"pad\":\"" + "x".repeat(1 << 20) + "\"}}";

    private static long threads() {
        return Long.parseLong(given().contentType("application/json").body("{}").when().post("/threads/count")
                .then().statusCode(200).extract().asString().trim());
    }

    private static int runs(String thread) {
        return given().when().get("/threads/{t}/runs?limit=1000", thread).then().statusCode(200).extract().path("size()");
    }

    @Test
    void malformedJsonIs400EverywhereAndWritesNothing() {
        String thread = newThread("malformed");
        long before = threads();
        for (String path : List.of("/threads", "/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream",
                "/threads/" + thread + "/runs/wait", "/runs", "/runs/stream", "/runs/wait", "/threads/search",
                "/threads/" + thread + "/state", "/threads/" + thread + "/history", "/assistants/search")) {
            given().contentType("application/json").body("{\"assistant_id\": \"agent\", ").when().post(path)
                    .then().statusCode(400).contentType(containsString("application/json"))
                    .body("code", oneOf("malformed_json", "malformed_request")).body("detail", org.hamcrest.Matchers.notNullValue());
        }
        given().contentType("application/json").body("{").when().patch("/threads/{t}", thread)
                .then().statusCode(400).body("code", oneOf("malformed_json", "malformed_request"));
        assertThat(threads()).isEqualTo(before);
        assertThat(runs(thread)).isZero();
        assertThat(checkpointRuns(thread)).isEmpty();
    }

    @Test
    void aStatelessRunCannotResume() {
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "command", Map.of("resume", "yes")))
                .when().post("/runs").then().statusCode(400).body("code", equalTo("bad_request"));
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "command", Map.of("resume", "yes")))
                .when().post("/runs/stream").then().statusCode(400).body("code", equalTo("bad_request"));
    }

    @Test
    void unknownThingsAre404() {
        String nobody = "nobody-" + UUID.randomUUID();
        String run = UUID.randomUUID().toString();
        for (String path : List.of("/threads/" + nobody, "/threads/" + nobody + "/state", "/threads/" + nobody + "/runs/" + run,
                "/threads/" + nobody + "/runs/" + run + "/join", "/threads/" + nobody + "/runs/" + run + "/stream",
                "/assistants/no-such-assistant", "/assistants/no-such-assistant/graph")) {
            given().when().get(path).then().statusCode(404).contentType(containsString("application/json")).body("code", equalTo("not_found"));
        }
        for (String path : List.of("/threads/" + nobody + "/runs", "/threads/" + nobody + "/runs/stream", "/threads/" + nobody + "/runs/wait")) {
            given().contentType("application/json").body(run("hi")).when().post(path).then().statusCode(404).body("code", equalTo("not_found"));
        }
        given().contentType("application/json").body(Map.of("limit", 5)).when().post("/threads/{t}/history", nobody)
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().when().delete("/threads/{t}", nobody).then().statusCode(404).body("code", equalTo("not_found"));
        given().contentType("application/json").body(Map.of("metadata", Map.of("a", 1))).when().patch("/threads/{t}", nobody)
                .then().statusCode(404).body("code", equalTo("not_found"));
        String thread = newThread("known");
        given().when().get("/threads/{t}/state/{c}", thread, UUID.randomUUID().toString()).then().statusCode(404).body("code", equalTo("not_found"));
        given().when().get("/threads/{t}/runs/{r}", thread, run).then().statusCode(404).body("code", equalTo("not_found"));
        given().when().delete("/threads/{t}/runs/{r}", thread, run).then().statusCode(404).body("code", equalTo("not_found"));
        given().contentType("application/json").body(run("hi").entrySet().stream().filter(e -> !e.getKey().equals("assistant_id"))
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
                .when().post("/threads/{t}/runs", thread).then().statusCode(422);
        given().contentType("application/json").body(Map.of("assistant_id", "no-such-assistant"))
                .when().post("/threads/{t}/runs/stream", thread).then().statusCode(404).body("code", equalTo("not_found"));
        assertThat(runs(thread)).isZero();
        // a thread to create on the fly is not created when the request is refused
        given().contentType("application/json").body(Map.of("assistant_id", "no-such-assistant", "if_not_exists", "create"))
                .when().post("/threads/{t}/runs", nobody).then().statusCode(404);
        given().when().get("/threads/{t}", nobody).then().statusCode(404);
    }

    @Test
    void conflictsAre409() {
        String thread = newThread("conflict");
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads")
                .then().statusCode(409).body("code", equalTo("thread_exists"));
        given().contentType("application/json").body(Map.of("thread_id", thread, "if_exists", "do_nothing")).when().post("/threads")
                .then().statusCode(200).body("thread_id", equalTo(thread));
        String pending = start(thread, run("later", "after_seconds", 60));
        given().contentType("application/json").body(run("now", "multitask_strategy", "reject")).when().post("/threads/{t}/runs/wait", thread)
                .then().statusCode(409).body("code", equalTo("thread_busy")).body("detail", containsString("already running"));
        given().when().delete("/threads/{t}", thread).then().statusCode(409).body("code", equalTo("thread_busy"));
        given().when().delete("/threads/{t}/runs/{r}", thread, pending).then().statusCode(409).body("code", equalTo("thread_busy"));
        given().contentType("application/json").body(Map.of("values", Map.of())).when().post("/threads/{t}/state", thread)
                .then().statusCode(409).body("code", equalTo("thread_busy"));
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, pending).then().statusCode(200);
        given().when().delete("/threads/{t}/runs/{r}", thread, pending).then().statusCode(204);
    }

    @Test
    void invalidFieldsAre422AndWriteNothing() {
        String thread = newThread("invalid");
        List<Map<String, Object>> bad = List.of(
                run("hi", "stream_mode", "telepathy"),
                run("hi", "multitask_strategy", "shout"),
                run("hi", "on_disconnect", "explode"),
                run("hi", "if_not_exists", "maybe"),
                run("hi", "after_seconds", -1),
                run("hi", "metadata", List.of(1)),
                run("hi", "config", "fast"),
                run("hi", "durability", "forever"),
                run("hi", "config", Map.of("configurable", Map.of("retry_budget", "lots"))),
                Map.of("assistant_id", 7),
                Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "a\u0000b")))),
                Map.of("assistant_id", "agent", "input", Map.of("messages", List.of(Map.of("role", "user", "content", "x".repeat(9000))))));
        for (Map<String, Object> body : bad) {
            for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait")) {
                given().contentType("application/json").body(body).when().post(path)
                        .then().statusCode(422).contentType(containsString("application/json")).body("code", equalTo("invalid_input"));
            }
        }
        // both configurable and context: 400, as LangGraph's Python server answers
        for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait")) {
            given().contentType("application/json").body(run("hi", "config", Map.of("configurable", Map.of("user_id", "u")), "context", Map.of("user_id", "u")))
                    .when().post(path).then().statusCode(400).body("code", equalTo("bad_request"));
        }
        given().contentType("application/json").body("[1]").when().post("/threads/{t}/runs", thread).then().statusCode(422);
        given().contentType("application/json").body(Map.of("thread_id", "has space")).when().post("/threads").then().statusCode(422);
        given().contentType("application/json").body(Map.of("if_exists", "sometimes")).when().post("/threads").then().statusCode(422);
        given().contentType("application/json").body(Map.of("limit", 0)).when().post("/threads/search").then().statusCode(422);
        given().contentType("application/json").body(Map.of("status", "sleepy")).when().post("/threads/search").then().statusCode(422);
        given().when().get("/threads/{t}/runs?status=sleepy", thread).then().statusCode(422);
        assertThat(runs(thread)).isZero();
        assertThat(checkpointRuns(thread)).isEmpty();
    }

    @Test
    void aBodyOverTheLimitIsAJson413OnEveryEndpointAndWritesNothing() {
        String thread = newThread("huge");
        long before = threads();
        for (String path : List.of("/threads", "/threads/search", "/threads/count", "/threads/" + thread + "/runs",
                "/threads/" + thread + "/runs/stream", "/threads/" + thread + "/runs/wait", "/runs", "/runs/stream", "/runs/wait",
                "/threads/" + thread + "/state", "/threads/" + thread + "/history", "/assistants/search", "/assistants/count")) {
            given().contentType("application/json").body(HUGE).when().post(path)
                    .then().statusCode(413).contentType(containsString("application/json")).body("code", equalTo("body_too_large"))
                    .body("detail", containsString("larger than"));
        }
        given().contentType("application/json").body(HUGE).when().patch("/threads/{t}", thread)
                .then().statusCode(413).body("code", equalTo("body_too_large"));
        assertThat(threads()).isEqualTo(before);
        assertThat(runs(thread)).isZero();
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("metadata.size()", equalTo(0));
        // a body just under the limit is read
        given().contentType("application/json").body("{\"metadata\":{\"pad\":\"" + "x".repeat((1 << 20) - 100) + "\"}}")
                .when().patch("/threads/{t}", thread).then().statusCode(200);
    }

    @Test
    void aChunkedBodyOverTheLimitIsAJson413Too() throws Exception {
        String thread = newThread("chunked");
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (String path : List.of("/threads/" + thread + "/runs", "/threads/" + thread + "/runs/stream", "/threads/search")) {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(HUGE.getBytes(StandardCharsets.UTF_8))))
                    .build();
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            assertThat(resp.statusCode()).as(path).isEqualTo(413);
            assertThat(Api.tree(resp.body()).path("code").asText()).as(path).isEqualTo("body_too_large");
        }
        assertThat(runs(thread)).isZero();
        // a chunked body under the limit is read, by quarkus-rest and by the streaming routes alike
        for (String path : List.of("/threads/" + thread + "/runs/wait", "/threads/" + thread + "/runs")) {
            String small = Api.json(run("chunked but small"));
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(small.getBytes(StandardCharsets.UTF_8))))
                    .build();
            HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
            assertThat(resp.statusCode()).as(path).isEqualTo(200);
            if (path.endsWith("/runs")) {
                join(thread, Api.tree(resp.body()).path("run_id").asText());
            } else {
                assertThat(Api.contents(Api.tree(resp.body()))).contains("chunked but small");
            }
        }
        assertThat(runs(thread)).isEqualTo(2);
    }

    @Test
    void theHealthEndpointsRefuseWrites() {
        for (String path : List.of("/q/health", "/q/health/ready", "/q/health/live", "/q/health/started")) {
            given().contentType("application/json").body("{}").when().post(path)
                    .then().statusCode(405).header("Allow", containsString("GET")).body("code", equalTo("method_not_allowed"));
            given().when().put(path).then().statusCode(405);
            given().when().delete(path).then().statusCode(405);
            given().when().get(path).then().statusCode(200);
        }
    }

    @Test
    void idsThatAreNotIdsNeverNameAThread() {
        // %ff and %fe are not UTF-8: decoded, both would become "bad\uFFFD", one thread for two names
        for (String raw : List.of("bad%ff", "bad%fe", "bad%00", "bad%20id")) {
            Response created = given().urlEncodingEnabled(false).contentType("application/json").body(run("hi", "if_not_exists", "create"))
                    .when().post("/threads/" + raw + "/runs");
            assertThat(created.statusCode()).as(raw).isIn(404, 422);
            Response streamed = given().urlEncodingEnabled(false).contentType("application/json").body(run("hi", "if_not_exists", "create"))
                    .when().post("/threads/" + raw + "/runs/wait");
            assertThat(streamed.statusCode()).as(raw).isIn(404, 422);
            given().urlEncodingEnabled(false).when().get("/threads/" + raw).then().statusCode(404);
            given().urlEncodingEnabled(false).when().get("/threads/" + raw + "/state").then().statusCode(404);
        }
        given().contentType("application/json").body(Map.of("thread_id", "bad\uFFFD")).when().post("/threads")
                .then().statusCode(422).body("code", equalTo("invalid_input"));
        // nor is there the thread both would have named
        given().urlEncodingEnabled(false).when().get("/threads/bad%EF%BF%BD").then().statusCode(404);
        given().contentType("application/json").body(Map.of("limit", 1000)).when().post("/threads/search")
                .then().statusCode(200).body("findAll { it.thread_id.contains('\uFFFD') || it.thread_id.contains('%') }.size()", equalTo(0));
    }

    @Test
    void aKnownThreadStillWorksAfterAllThat() {
        String thread = newThread("after-errors");
        assertThat(Api.contents(join(thread, start(thread, run("fine"))))).contains("fine");
    }
}
