package io.conduit.api;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Small steps of the HTTP API that the API tests repeat. */
final class Api {

    private Api() {
    }

    /**
     * A user message the simulator answers slowly: its default rule echoes the message, one token per word, and
     * the test profiles pace tokens (10 ms: some 15 s a model call, far longer than any test waits).
     */
    static final String SLOW = "tick ".repeat(1500).trim();

    static String newThread(String prefix) {
        String id = prefix + "-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", id)).when().post("/threads").then().statusCode(200);
        return id;
    }

    static Map<String, Object> say(String text) {
        return Map.of("messages", List.of(Map.of("role", "user", "content", text)));
    }

    static Map<String, Object> run(String text, Object... more) {
        Map<String, Object> body = new HashMap<>();
        body.put("assistant_id", "agent");
        body.put("input", say(text));
        for (int i = 0; i < more.length; i += 2) {
            body.put((String) more[i], more[i + 1]);
        }
        return body;
    }

    static String json(Object body) {
        try {
            return JsonCodec.MAPPER.writeValueAsString(body);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Creates a background run; its id. */
    static String start(String thread, Map<String, Object> body) {
        return given().contentType("application/json").body(body).when().post("/threads/{t}/runs", thread)
                .then().statusCode(200).extract().path("run_id");
    }

    /** Waits for the run's end (GET .../join); the final values. */
    static JsonNode join(String thread, String run) {
        return tree(given().when().get("/threads/{t}/runs/{r}/join", thread, run).then().statusCode(200).extract().asString());
    }

    static String status(String thread, String run) {
        return given().when().get("/threads/{t}/runs/{r}", thread, run).then().statusCode(200).extract().path("status");
    }

    static String threadStatus(String thread) {
        return given().when().get("/threads/{t}", thread).then().statusCode(200).extract().path("status");
    }

    static JsonNode state(String thread) {
        return tree(given().when().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
    }

    /** The contents of the thread's messages, oldest first. */
    static List<String> contents(JsonNode values) {
        List<String> out = new ArrayList<>();
        values.path("messages").forEach(m -> out.add(m.path("content").asText()));
        return out;
    }

    /** The run id of each of the thread's checkpoints, newest first. */
    static List<String> checkpointRuns(String thread) {
        JsonNode h = tree(given().contentType("application/json").body(Map.of("limit", 1000))
                .when().post("/threads/{t}/history", thread).then().statusCode(200).extract().asString());
        List<String> out = new ArrayList<>();
        h.forEach(s -> out.add(s.path("metadata").path("run_id").asText()));
        return out;
    }

    static JsonNode tree(String json) {
        try {
            return JsonCodec.MAPPER.readTree(json.trim());
        } catch (Exception e) {
            throw new IllegalStateException("not JSON: " + json, e);
        }
    }
}
