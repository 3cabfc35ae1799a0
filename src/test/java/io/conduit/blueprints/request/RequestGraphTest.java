package io.conduit.blueprints.request;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.kernel.JsonCodec;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The request blueprint end to end over the HTTP API, on the simulator with a script of its own
 * (src/test/resources/io/conduit/blueprints/request/script.json): the clarification gate and its cap, {@code is_api},
 * each retry budget spent (and set smaller per run), the solver's node timeout and the tool timeout.
 */
@QuarkusTest
@TestProfile(RequestGraphTest.Scripted.class)
class RequestGraphTest {

    public static class Scripted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.simulator.script", "src/test/resources/io/conduit/blueprints/request/script.json");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(HangingLookupService.class));
        }
    }

    @Test
    void aClearRequestIsPlannedSolvedAnsweredAndMeasured() {
        String thread = thread();
        JsonNode v = run(thread, input("sum the numbers", false), Map.of());
        assertThat(v.path("output").path("text").asText()).isEqualTo("Here is the answer.");
        assertThat(texts(v.path("output").path("suggestions"))).containsExactly("Tell me more", "Show the steps");
        JsonNode p = v.path("processing");
        assertThat(texts(p.path("plan"))).containsExactly("work it out", "check it");
        assertThat(texts(p.path("results"))).containsExactly("step 1 done", "step 2 done");
        assertThat(p.path("errors").size()).isZero();
        assertThat(v.path("input").path("message").asText()).isEqualTo("sum the numbers");
        assertThat(nodes(v)).containsExactly("clarify", "plan", "solve", "solve", "answer");
        assertThat(v.path("turn_metrics").path("input_tokens").asInt()).isPositive();
        assertThat(v.path("turn_metrics").path("calls").get(0).path("model").asText()).isNotEmpty();
        assertThat(threadStatus(thread)).isEqualTo("idle");
        // the thread is the request graph's: its state is read with its schema
        assertThat(state(thread).path("values").path("output").path("text").asText()).isEqualTo("Here is the answer.");
    }

    @Test
    void anAmbiguousRequestIsClarifiedAtMostTwiceInARowThenAnsweredWithABestEffort() {
        String thread = thread();
        JsonNode first = run(thread, input("vague thing", false), Map.of());
        JsonNode ask = first.path("__interrupt__").get(0).path("value");
        assertThat(ask.path("action").asText()).isEqualTo("clarify");
        assertThat(ask.path("question").asText()).isEqualTo("Which one do you mean?");
        assertThat(ask.path("round").asInt()).isEqualTo(1);
        assertThat(ask.path("max_rounds").asInt()).isEqualTo(2);
        assertThat(threadStatus(thread)).isEqualTo("interrupted");

        JsonNode second = resume(thread, "the red one");
        assertThat(second.path("__interrupt__").get(0).path("value").path("round").asInt()).isEqualTo(2);

        JsonNode done = resume(thread, Map.of("answer", "the big one"));
        assertThat(done.has("__interrupt__")).isFalse();
        assertThat(done.path("output").path("text").asText()).isEqualTo("Here is the answer.");
        assertThat(texts(done.path("processing").path("clarifications"))).containsExactly("the red one", "the big one");
        assertThat(texts(done.path("processing").path("errors")))
                .containsExactly("clarification: 2 questions asked in a row; going on with a best effort");
        assertThat(nodes(done)).containsExactly("clarify", "clarify", "plan", "solve", "solve", "answer"); // no third judgement
    }

    @Test
    void theClarificationCapIsASetting() {
        JsonNode v = run(thread(), input("vague again", false), Map.of("max_clarifications", 0));
        assertThat(v.has("__interrupt__")).isFalse();
        assertThat(v.path("output").path("text").asText()).isEqualTo("Here is the answer.");
    }

    @Test
    void anApiCallerIsNeverAskedAndNoJudgementIsMade() {
        JsonNode v = run(thread(), input("vague but from an API", true), Map.of());
        assertThat(v.has("__interrupt__")).isFalse();
        assertThat(v.path("output").path("text").asText()).isEqualTo("Here is the answer.");
        assertThat(nodes(v)).doesNotContain("clarify");
    }

    @Test
    void theStructuredOutputBudgetIsThreeMethodsTimesTwoAttemptsThenABestEffort() {
        JsonNode v = run(thread(), input("garbled words", false), Map.of());
        assertThat(nodes(v).stream().filter("clarify"::equals)).hasSize(6);
        assertThat(texts(v.path("processing").path("errors"))).singleElement().asString()
                .startsWith("clarification: no usable judge_clarity after 6 attempts (3 methods x 2); the last answer: it is not valid JSON");
        assertThat(v.path("output").path("text").asText()).isEqualTo("Here is the answer.");

        JsonNode smaller = run(thread(), input("garbled words", false), Map.of("structured_output_attempts", 1));
        assertThat(nodes(smaller).stream().filter("clarify"::equals)).hasSize(3);
    }

    @Test
    void thePlanningBudgetIsThreePlansThenTheRequestAsOneStep() {
        JsonNode v = run(thread(), input("unplannable task", false), Map.of());
        assertThat(nodes(v).stream().filter("plan"::equals)).hasSize(3);
        JsonNode p = v.path("processing");
        assertThat(p.path("attempts").path("planning").asInt()).isEqualTo(3);
        assertThat(texts(p.path("plan"))).containsExactly("unplannable task");
        assertThat(texts(p.path("errors"))).containsExactly(
                "planning: no usable plan after 3 attempts (it has no steps); the request is carried out as one step");
        assertThat(v.path("output").path("text").asText()).isEqualTo("Here is the answer.");

        JsonNode smaller = run(thread(), input("unplannable task", false), Map.of("planning_attempts", 1));
        assertThat(nodes(smaller).stream().filter("plan"::equals)).hasSize(1);
    }

    @Test
    void theValidationBudgetIsThreeAnswersThenTheLastIsKept() {
        JsonNode v = run(thread(), input("unanswerable question", false), Map.of());
        assertThat(nodes(v).stream().filter("answer"::equals)).hasSize(3);
        assertThat(v.path("processing").path("attempts").path("validation").asInt()).isEqualTo(3);
        assertThat(texts(v.path("processing").path("errors"))).containsExactly(
                "validation: 3 answers refused (the last: the answer is empty); the last one is kept");
        assertThat(v.path("processing").path("validation_problem").isMissingNode()).isTrue();

        JsonNode smaller = run(thread(), input("unanswerable question", false), Map.of("validation_attempts", 2));
        assertThat(nodes(smaller).stream().filter("answer"::equals)).hasSize(2);
    }

    @Test
    void aSolverStepPastItsTimeoutFailsTheRunWithAClearError() {
        String thread = thread();
        JsonNode v = run(thread, input("stall please", true), Map.of("solver_timeout_ms", 150, "http_tool_timeout_ms", 600_000));
        assertThat(v.path("__error__").path("error").asText()).isEqualTo("node_timeout");
        assertThat(v.path("__error__").path("message").asText()).isEqualTo("node solve took longer than its timeout of 150 ms");
        assertThat(threadStatus(thread)).isEqualTo("error");
    }

    @Test
    void aToolPastItsTimeoutFailsTheStepWithAClearError() {
        String thread = thread();
        JsonNode v = run(thread, input("lookup something", true), Map.of("http_tool_timeout_ms", 150));
        assertThat(v.path("__error__").path("message").asText())
                .isEqualTo("node solve failed: step 1 failed: slow_lookup did not answer within 150ms");
        assertThat(threadStatus(thread)).isEqualTo("error");
    }

    @Test
    void badInputAndBadSettingsAreRefusedBeforeARunExists() {
        String thread = thread();
        given().contentType("application/json").body(Map.of("assistant_id", "request", "input", Map.of("input", Map.of("message", " "))))
                .post("/threads/{t}/runs", thread).then().statusCode(422);
        given().contentType("application/json").body(Map.of("assistant_id", "request", "input", input("x", false),
                        "config", Map.of("configurable", Map.of("planning_attempts", 0))))
                .post("/threads/{t}/runs", thread).then().statusCode(422);
        given().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", org.hamcrest.Matchers.equalTo(0));
    }

    // --- steps of the HTTP API

    static Map<String, Object> input(String message, boolean api) {
        return Map.of("input", Map.of("message", message, "is_api", api, "language", "English"));
    }

    static String thread() {
        String id = "request-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", id)).post("/threads").then().statusCode(200);
        return id;
    }

    static JsonNode run(String thread, Map<String, Object> input, Map<String, Object> configurable) {
        Map<String, Object> body = new HashMap<>();
        body.put("assistant_id", "request");
        body.put("input", input);
        body.put("config", Map.of("configurable", configurable));
        return post(thread, body);
    }

    static JsonNode resume(String thread, Object reply) {
        return post(thread, Map.of("assistant_id", "request", "command", Map.of("resume", reply)));
    }

    static JsonNode post(String thread, Map<String, Object> body) {
        String out = given().contentType("application/json").body(body).post("/threads/{t}/runs/wait", thread)
                .then().statusCode(200).extract().asString();
        try {
            return JsonCodec.MAPPER.readTree(out.trim());
        } catch (Exception e) {
            throw new IllegalStateException(out, e);
        }
    }

    static JsonNode state(String thread) {
        try {
            return JsonCodec.MAPPER.readTree(given().get("/threads/{t}/state", thread).then().statusCode(200).extract().asString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String threadStatus(String thread) {
        return given().get("/threads/{t}", thread).then().statusCode(200).extract().path("status");
    }

    /** The node of each model call of the turn, in order. */
    static List<String> nodes(JsonNode values) {
        List<String> out = new ArrayList<>();
        values.path("turn_metrics").path("calls").forEach(c -> out.add(c.path("node").asText()));
        return out;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> out.add(x.asText()));
        return out;
    }
}
