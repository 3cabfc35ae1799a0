package io.conduit.api;

import static io.conduit.api.Api.SLOW;
import static io.conduit.api.Api.checkpointRuns;
import static io.conduit.api.Api.contents;
import static io.conduit.api.Api.join;
import static io.conduit.api.Api.json;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.conduit.api.Api.state;
import static io.conduit.api.Api.status;
import static io.conduit.api.Api.threadStatus;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A run's life on the API, as the Agent Server defines it: the multitask strategies, cancel, disconnects, wait,
 * stateless runs, thread deletion, timeouts and failures; run by one subclass per store. Runs are made slow by the
 * simulator's token pacing ({@link Api#SLOW}) and never awaited by sleeping: the tests wait on streams and joins.
 */
abstract class RunLifecycleContract {

    @jakarta.inject.Inject
    io.conduit.stream.ProtocolEventLogs protocol;

    /**
     * The thread protocol's view of the same runs: each run, in the order given, well formed (running first, one root
     * terminal last) and ending as {@code ends} says ({@code completed}, {@code interrupted}, {@code failed}); seqs
     * increase across them all.
     */
    static List<io.conduit.runs.events.RunEvent> protocolRunsEnded(ProtocolRecorder recorder, List<String> runIds, String... ends) {
        List<io.conduit.runs.events.RunEvent> all = recorder.awaitRunsEnded(runIds.size(), LONG);
        assertThat(all).extracting(io.conduit.runs.events.RunEvent::seq).isSorted().doesNotHaveDuplicates();
        for (int i = 0; i < runIds.size(); i++) {
            List<io.conduit.runs.events.RunEvent> run = ProtocolEventsOnSimulatorTest.ofRun(all, runIds.get(i));
            ProtocolEventsOnSimulatorTest.wellFormedRun(run);
            assertThat(ProtocolRecorder.label(run.get(run.size() - 1))).isEqualTo("lifecycle:" + ends[i] + "@");
        }
        return all;
    }

    /** The profile's settings: 10 ms a token (a short turn takes well under a second) and a 4 s run timeout. */
    static Map<String, String> slowModel(Map<String, String> more) {
        Map<String, String> m = new java.util.HashMap<>(Map.of(
                "conduit.simulator.inter-token-delay", "10ms",
                "conduit.runs.timeout", "4s"));
        m.putAll(more);
        return m;
    }

    static final Duration LONG = Duration.ofSeconds(30);
    static final ExecutorService POOL = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "api-test-client");
        t.setDaemon(true);
        return t;
    });

    /** Starts a slow run and returns once it is inside its first model call (its input checkpointed). */
    static SseClient slowRun(String thread, Object... more) {
        List<Object> args = new ArrayList<>(List.of(more));
        args.addAll(List.of("stream_mode", List.of("values")));
        SseClient s = SseClient.post("/threads/" + thread + "/runs/stream", json(run(SLOW, args.toArray())));
        assertThat(s.status()).isEqualTo(200);
        s.await(e -> e.event().equals("values") && contents(e.data()).contains(SLOW), LONG);
        return s;
    }

    static String runId(SseClient s) {
        String location = s.response.headers().firstValue("Content-Location").orElseThrow();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    // ---- multitask strategies

    @Test
    void rejectAnswers409WhileARunIsInFlightAndWritesNothing() {
        String thread = newThread("reject");
        String first = start(thread, run("hi", "after_seconds", 60));
        given().contentType("application/json").body(run("hello", "multitask_strategy", "reject"))
                .when().post("/threads/{t}/runs", thread)
                .then().statusCode(409).body("code", equalTo("thread_busy"));
        given().contentType("application/json").body(json(run("hello", "multitask_strategy", "reject")))
                .when().post("/threads/{t}/runs/stream", thread)
                .then().statusCode(409).body("code", equalTo("thread_busy"));
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, first).then().statusCode(200);
        assertThat(checkpointRuns(thread)).isEmpty();
    }

    @Test
    void twoConcurrentRejectRunsOnAnIdleThreadGetExactlyOne409() throws Exception {
        for (int round = 0; round < 5; round++) {
            String thread = newThread("race");
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Response>> posts = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                posts.add(POOL.submit(() -> {
                    go.await();
                    return given().contentType("application/json").body(run("hi", "multitask_strategy", "reject", "after_seconds", 60))
                            .when().post("/threads/{t}/runs", thread);
                }));
            }
            go.countDown();
            List<Integer> codes = new ArrayList<>();
            String winner = null;
            for (Future<Response> f : posts) {
                Response r = f.get();
                codes.add(r.statusCode());
                if (r.statusCode() == 200) {
                    winner = r.path("run_id");
                } else {
                    assertThat(r.<String>path("code")).isEqualTo("thread_busy");
                }
            }
            assertThat(codes).containsExactlyInAnyOrder(200, 409);
            given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
            given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, winner).then().statusCode(200);
        }
    }

    @Test
    void ofSimultaneousStreamedTurnsWithRejectOneGetsTheThreadAndTheOthersWriteAndStreamNothing() throws Exception {
        int n = 4;
        String thread = newThread("turns");
        CountDownLatch go = new CountDownLatch(1);
        List<Future<SseClient>> posts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = "turn " + i;
            posts.add(POOL.submit(() -> {
                go.await();
                return SseClient.post("/threads/" + thread + "/runs/stream", json(run(text, "multitask_strategy", "reject",
                        "stream_mode", List.of("values", "messages-tuple"))));
            }));
        }
        go.countDown();
        SseClient winner = null;
        int rejected = 0;
        for (Future<SseClient> f : posts) {
            SseClient s = f.get();
            if (s.status() == 200) {
                assertThat(winner).as("only one run gets the thread").isNull();
                winner = s;
            } else {
                assertThat(s.status()).isEqualTo(409);
                assertThat(s.response.headers().firstValue("Content-Type").orElse("")).contains("application/json");
                assertThat(s.json().path("code").asText()).isEqualTo("thread_busy");
                rejected++;
            }
        }
        assertThat(rejected).isEqualTo(n - 1);
        List<SseClient.Sse> events = winner.toEnd(LONG);
        String runId = runId(winner);
        assertThat(events.get(0).event()).isEqualTo("metadata");
        assertThat(events.get(0).data().path("run_id").asText()).isEqualTo(runId);
        assertThat(events.get(events.size() - 1).event()).isEqualTo("end");
        // what the winner streamed and the thread holds are the winner's turn only
        JsonNode last = events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data();
        List<String> said = contents(last).stream().filter(c -> c.startsWith("turn ")).toList();
        assertThat(said).hasSize(1);
        assertThat(contents(state(thread).path("values"))).filteredOn(c -> c.startsWith("turn ")).isEqualTo(said);
        for (SseClient.Sse e : events) {
            if (e.event().equals("messages")) {
                assertThat(e.data().get(1).path("run_id").asText(runId)).isEqualTo(runId);
            }
        }
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(1));
        assertThat(new HashSet<>(checkpointRuns(thread))).containsExactly(runId);
    }

    @Test
    void ofSimultaneousTurnsWithInterruptTheLastCreatedWinsAndTheOthersStreamOnlyTheirOwnEvents() throws Exception {
        int n = 4;
        for (int round = 0; round < 3; round++) {
            String thread = newThread("turns-int");
            Map<String, List<SseClient.Sse>> streamed = simultaneousTurns(thread, n, "interrupt", List.of("values", "messages-tuple"));
            // the runs in creation order (the API lists newest first)
            List<JsonNode> runs = new ArrayList<>();
            Api.tree(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString()).forEach(runs::add);
            java.util.Collections.reverse(runs);
            assertThat(runs).hasSize(n);
            JsonNode newest = runs.get(n - 1);
            assertThat(newest.path("status").asText()).as("the last created run is never interrupted").isEqualTo("success");
            List<String> withCheckpoints = checkpointRuns(thread);
            for (JsonNode r : runs.subList(0, n - 1)) {
                // interrupted by a later one, unless it was done before the later ones came
                assertThat(r.path("status").asText()).isIn("interrupted", "success");
            }
            for (Map.Entry<String, List<SseClient.Sse>> e : streamed.entrySet()) {
                List<SseClient.Sse> events = e.getValue();
                assertThat(events).as("every client is told of its run").isNotEmpty();
                assertThat(events.get(0).event()).isEqualTo("metadata");
                assertThat(events.get(0).data().path("run_id").asText()).isEqualTo(e.getKey());
                if (!withCheckpoints.contains(e.getKey())) {
                    // a run that never got the thread streamed nothing but its own metadata and how it ended
                    assertThat(events).allMatch(x -> x.event().equals("metadata") || x.event().equals("end") || x.event().equals("error"));
                }
                stoppedByALaterRunOrEnded(e.getKey(), events, runs, "UserInterrupt");
            }
            String said = contents(state(thread).path("values")).stream().filter(c -> c.startsWith("turn ")).reduce((a, b) -> b).orElseThrow();
            assertThat(said).isEqualTo(contents(newest.path("kwargs").path("input")).get(0));
        }
    }

    /**
     * {@code n} turns posted at once with {@code runs/stream} and {@code strategy}, each streamed to its end: the events
     * of each, by run id in creation order (run ids sort by creation).
     */
    static Map<String, List<SseClient.Sse>> simultaneousTurns(String thread, int n, String strategy, List<String> modes) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<SseClient>> posts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String text = "turn " + i;
            posts.add(POOL.submit(() -> {
                go.await();
                return SseClient.post("/threads/" + thread + "/runs/stream", json(run(text, "multitask_strategy", strategy, "stream_mode", modes)));
            }));
        }
        go.countDown();
        Map<String, List<SseClient.Sse>> streamed = new java.util.TreeMap<>();
        for (Future<SseClient> f : posts) {
            try (SseClient s = f.get()) {
                assertThat(s.status()).isEqualTo(200);
                streamed.put(runId(s), s.toEnd(LONG));
            }
        }
        return streamed;
    }

    /**
     * The end of a run's stream: an interrupted (or rolled back) run's clients get an {@code error} naming the later run
     * that stopped it, and nothing after it; a run that finished gets {@code end}.
     */
    static void stoppedByALaterRunOrEnded(String runId, List<SseClient.Sse> events, List<JsonNode> runsInOrder, String code) {
        SseClient.Sse last = events.get(events.size() - 1);
        JsonNode run = runsInOrder.stream().filter(r -> r.path("run_id").asText().equals(runId)).findFirst().orElse(null);
        if (run != null && run.path("status").asText().equals("success")) {
            assertThat(last.event()).as("the last event of a finished run").isEqualTo("end");
            return;
        }
        assertThat(last.event()).as("the last event of a stopped run %s: %s", runId, events).isEqualTo("error");
        assertThat(last.data().path("error").asText()).isEqualTo(code);
        // the stopper was created after it, but its id may sort before: ids made in one millisecond by two requests
        // are ordered by their making, not by which insert landed first
        List<String> others = runsInOrder.stream().map(r -> r.path("run_id").asText()).filter(id -> !id.equals(runId)).toList();
        String message = last.data().path("message").asText();
        assertThat(others).as("another run of the thread named in: %s", message).anyMatch(message::contains);
        assertThat(events).filteredOn(x -> x.event().equals("end")).isEmpty();
    }

    @Test
    void theClientsOfRunsStoppedByALaterRollbackAreToldWhoStoppedThem() throws Exception {
        int n = 4;
        for (int round = 0; round < 2; round++) {
            String thread = newThread("turns-rb");
            Map<String, List<SseClient.Sse>> streamed = simultaneousTurns(thread, n, "rollback", List.of("values"));
            // rolled back runs are deleted: what is listed finished; the others were stopped by a later one
            List<JsonNode> listed = new ArrayList<>();
            Api.tree(given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().asString()).forEach(listed::add);
            List<JsonNode> all = new ArrayList<>(listed);
            for (String id : streamed.keySet()) {
                if (listed.stream().noneMatch(r -> r.path("run_id").asText().equals(id))) {
                    all.add(Api.tree("{\"run_id\":\"" + id + "\",\"status\":\"rolled_back\"}"));
                }
            }
            List<String> ids = new ArrayList<>(streamed.keySet());
            assertThat(listed).extracting(r -> r.path("run_id").asText()).contains(ids.get(n - 1));
            for (Map.Entry<String, List<SseClient.Sse>> e : streamed.entrySet()) {
                List<SseClient.Sse> events = e.getValue();
                assertThat(events).as("every client is told of its run").isNotEmpty();
                assertThat(events.get(0).event()).isEqualTo("metadata");
                assertThat(events.get(0).data().path("run_id").asText()).isEqualTo(e.getKey());
                stoppedByALaterRunOrEnded(e.getKey(), events, all, "UserRollback");
            }
        }
    }

    @Test
    void enqueuedRunsRunOneAfterTheOtherInOrder() throws Exception {
        int n = 3;
        String thread = newThread("enqueue");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(start(thread, run("turn " + i, "multitask_strategy", "enqueue")));
        }
        for (String id : ids) {
            join(thread, id);
            assertThat(status(thread, id)).isEqualTo("success");
        }
        // each run's checkpoints are contiguous: no run wrote while another had the thread
        List<String> byRun = new ArrayList<>(checkpointRuns(thread));
        java.util.Collections.reverse(byRun);
        List<String> order = new ArrayList<>();
        for (String r : byRun) {
            if (order.isEmpty() || !order.get(order.size() - 1).equals(r)) {
                order.add(r);
            }
        }
        assertThat(order).isEqualTo(ids);
        assertThat(contents(state(thread).path("values"))).filteredOn(c -> c.startsWith("turn ")).containsExactly("turn 0", "turn 1", "turn 2");
        assertThat(threadStatus(thread)).isEqualTo("idle");
    }

    @Test
    void interruptStopsTheRunningRunKeepsItsCheckpointsAndRunsTheNewOneAfter() {
        String thread = newThread("interrupt");
        String first = start(thread, run("first"));
        join(thread, first);
        try (ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread); SseClient slow = slowRun(thread)) {
            String slowId = runId(slow);
            recorder.await(es -> es.stream().anyMatch(e -> e.runId().equals(slowId) && e.mode().equals("messages")), LONG); // a model call in flight
            String next = start(thread, run("second", "multitask_strategy", "interrupt"));
            List<SseClient.Sse> events = slow.toEnd(LONG);
            // its client is told that, and by which run, it was interrupted
            assertThat(events.get(events.size() - 1).event()).isEqualTo("error");
            assertThat(events.get(events.size() - 1).data().path("error").asText()).isEqualTo("UserInterrupt");
            assertThat(events.get(events.size() - 1).data().path("message").asText()).contains(next);
            assertThat(events).filteredOn(e -> e.event().equals("error")).hasSize(1);
            JsonNode after = join(thread, next);
            assertThat(status(thread, slowId)).isEqualTo("interrupted");
            assertThat(status(thread, next)).isEqualTo("success");
            // the interrupted run's input stayed, and the new run went on from its last checkpoint
            List<String> said = contents(after);
            assertThat(said).contains("first", SLOW, "second");
            assertThat(said.indexOf(SLOW)).isLessThan(said.indexOf("second"));
            assertThat(checkpointRuns(thread)).contains(slowId);
            assertThat(threadStatus(thread)).isEqualTo("idle");
            // the stopped run ended interrupted, its tasks in flight failed: every task namespace it opened, it closed
            List<io.conduit.runs.events.RunEvent> all = protocolRunsEnded(recorder, List.of(first, slowId, next), "completed", "interrupted", "completed");
            java.util.Map<String, List<String>> tasks = new java.util.HashMap<>();
            ProtocolEventsOnSimulatorTest.ofRun(all, slowId).stream().filter(e -> e.mode().equals("lifecycle") && !e.ns().isEmpty())
                    .forEach(e -> tasks.computeIfAbsent(e.ns(), k -> new ArrayList<>()).add(ProtocolRecorder.data(e).get("event").asText()));
            assertThat(tasks.values()).isNotEmpty().allMatch(l -> l.size() == 2 && l.get(0).equals("started"));
            assertThat(tasks.values()).anyMatch(l -> l.get(1).equals("failed"));
        }
    }

    @Test
    void rollbackDeletesTheRunningRunAndItsCheckpoints() {
        String thread = newThread("rollback");
        String first = start(thread, run("first"));
        join(thread, first);
        JsonNode before = state(thread);
        try (ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread); SseClient slow = slowRun(thread)) {
            String slowId = runId(slow);
            String next = start(thread, run("second", "multitask_strategy", "rollback"));
            slow.toEnd(LONG);
            JsonNode after = join(thread, next);
            given().when().get("/threads/{t}/runs/{r}", thread, slowId).then().statusCode(404);
            assertThat(status(thread, next)).isEqualTo("success");
            assertThat(checkpointRuns(thread)).doesNotContain(slowId);
            List<String> said = contents(after);
            assertThat(said).contains("first", "second").doesNotContain(SLOW);
            assertThat(said.subList(0, contents(before.path("values")).size())).isEqualTo(contents(before.path("values")));
            protocolRunsEnded(recorder, List.of(first, slowId, next), "completed", "interrupted", "completed");
        }
    }

    // ---- cancel

    @Test
    void cancelWithInterruptKeepsTheRunsProgressAndTheNextRunStartsFromIt() {
        String thread = newThread("cancel");
        try (ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread); SseClient slow = slowRun(thread)) {
            String slowId = runId(slow);
            given().when().post("/threads/{t}/runs/{r}/cancel?wait=1&action=interrupt", thread, slowId)
                    .then().statusCode(200).body("status", equalTo("interrupted"));
            slow.toEnd(LONG);
            assertThat(contents(state(thread).path("values"))).contains(SLOW);
            assertThat(threadStatus(thread)).isNotEqualTo("busy");
            // at once, the next run on the thread: it starts from the cancelled run's last checkpoint
            String next = start(thread, run("after"));
            JsonNode values = join(thread, next);
            assertThat(status(thread, next)).isEqualTo("success");
            assertThat(contents(values)).containsSubsequence(SLOW, "after");
            assertThat(threadStatus(thread)).isEqualTo("idle");
            protocolRunsEnded(recorder, List.of(slowId, next), "interrupted", "completed");
        }
    }

    @Test
    void cancelWithRollbackPutsTheThreadBackAsItWas() {
        String thread = newThread("cancel-rb");
        join(thread, start(thread, run("first")));
        JsonNode before = state(thread);
        try (SseClient slow = slowRun(thread)) {
            String slowId = runId(slow);
            given().when().post("/threads/{t}/runs/{r}/cancel?wait=1&action=rollback", thread, slowId)
                    .then().statusCode(org.hamcrest.Matchers.oneOf(200, 204));
            slow.toEnd(LONG);
            given().when().get("/threads/{t}/runs/{r}", thread, slowId).then().statusCode(404);
            JsonNode after = state(thread);
            assertThat(after.path("checkpoint_id").asText()).isEqualTo(before.path("checkpoint_id").asText());
            assertThat(after.path("values")).isEqualTo(before.path("values"));
            assertThat(checkpointRuns(thread)).doesNotContain(slowId);
            String next = start(thread, run("again"));
            assertThat(contents(join(thread, next))).containsSubsequence("first", "again").doesNotContain(SLOW);
        }
    }

    @Test
    void cancellingAnUnknownRunIs404() {
        String thread = newThread("cancel-404");
        given().when().post("/threads/{t}/runs/{r}/cancel", thread, java.util.UUID.randomUUID().toString())
                .then().statusCode(404).body("code", equalTo("not_found"));
        given().when().post("/threads/{t}/runs/{r}/cancel?action=explode", thread, java.util.UUID.randomUUID().toString())
                .then().statusCode(422).body("code", equalTo("invalid_input"));
    }

    // ---- disconnects

    @Test
    void onDisconnectCancelStopsTheRunWhenTheClientHangsUp() {
        String thread = newThread("disconnect");
        SseClient slow = slowRun(thread, "on_disconnect", "cancel");
        String slowId = runId(slow);
        slow.close();
        join(thread, slowId);
        assertThat(status(thread, slowId)).isEqualTo("interrupted");
        String next = start(thread, run("back"));
        assertThat(contents(join(thread, next))).containsSubsequence(SLOW, "back");
    }

    @Test
    void onDisconnectCancelStopsAWaitingRunWhenTheClientHangsUp() throws Exception {
        String thread = newThread("wait-disconnect");
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        CompletableFuture<java.net.http.HttpResponse<String>> waiting = http.sendAsync(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + "/threads/" + thread + "/runs/wait"))
                .header("Content-Type", "application/json").POST(java.net.http.HttpRequest.BodyPublishers.ofString(json(run(SLOW, "on_disconnect", "cancel"))))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        String id = null;
        while (id == null) { // the run's record appears when the request is in
            List<String> ids = given().when().get("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
            id = ids.isEmpty() ? null : ids.get(0);
            assertThat(waiting).isNotDone();
        }
        try (SseClient follow = SseClient.get("/threads/" + thread + "/runs/" + id + "/stream")) {
            follow.await(e -> e.event().equals("values") && contents(e.data()).contains(SLOW), LONG);
            waiting.cancel(true);
            follow.toEnd(LONG);
        }
        join(thread, id);
        assertThat(status(thread, id)).isEqualTo("interrupted");
    }

    @Test
    void byDefaultARunOutlivesItsClient() {
        String thread = newThread("continue");
        SseClient s = SseClient.post("/threads/" + thread + "/runs/stream", json(run("stay with me", "stream_mode", List.of("values"))));
        String id = runId(s);
        s.await(e -> e.event().equals("metadata"), LONG);
        s.close();
        join(thread, id);
        assertThat(status(thread, id)).isEqualTo("success");
    }

    // ---- wait

    @Test
    void runsWaitAnswersTheFinalValues() {
        String thread = newThread("wait");
        Response r = given().contentType("application/json").body(run("hello there")).when().post("/threads/{t}/runs/wait", thread);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("Content-Location")).startsWith("/threads/" + thread + "/runs/");
        JsonNode values = Api.tree(r.asString());
        assertThat(contents(values)).hasSizeGreaterThan(1).contains("hello there");
        assertThat(values).isEqualTo(state(thread).path("values"));
        // a breakpoint: the values so far and the pause
        Response paused = given().contentType("application/json").body(run("again", "interrupt_before", List.of("planner")))
                .when().post("/threads/{t}/runs/wait", thread);
        assertThat(paused.statusCode()).isEqualTo(200);
        assertThat(contents(Api.tree(paused.asString()))).contains("again");
        assertThat(state(thread).path("next").toString()).contains("planner");
    }

    // ---- timeouts and failures

    @Test
    void aRunPastTheTimeoutEndsTimeoutAndTheThreadGoesOnFromItsLastCheckpoint() {
        String thread = newThread("timeout");
        ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread);
        String first = start(thread, run("first"));
        join(thread, first);
        // runs/wait of a run that times out: the error, then the record says timeout
        Response r = given().contentType("application/json").body(run(SLOW)).when().post("/threads/{t}/runs/wait", thread);
        assertThat(r.statusCode()).isEqualTo(200);
        JsonNode out = Api.tree(r.asString());
        assertThat(out.path("__error__").path("error").asText()).isEqualTo("TimeoutError");
        String location = r.header("Content-Location");
        String slowId = location.substring(location.lastIndexOf('/') + 1);
        assertThat(status(thread, slowId)).isEqualTo("timeout");
        assertThat(threadStatus(thread)).isEqualTo("error");
        assertThat(contents(state(thread).path("values"))).containsSubsequence("first", SLOW);
        String next = start(thread, run("after the timeout"));
        assertThat(contents(join(thread, next))).containsSubsequence("first", SLOW, "after the timeout");
        assertThat(status(thread, next)).isEqualTo("success");
        assertThat(threadStatus(thread)).isEqualTo("idle");
        List<io.conduit.runs.events.RunEvent> timedOut = ProtocolEventsOnSimulatorTest.ofRun(
                protocolRunsEnded(recorder, List.of(first, slowId, next), "completed", "failed", "completed"), slowId);
        assertThat(ProtocolRecorder.data(timedOut.get(timedOut.size() - 1)).get("error").asText()).startsWith("TimeoutError");
        recorder.close();
    }

    @Test
    void aFailedRunLeavesTheThreadUsable() {
        String thread = newThread("fail");
        ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread);
        String first = start(thread, run("first"));
        join(thread, first);
        String before = state(thread).path("checkpoint_id").asText();
        String failed;
        try (SseClient s = SseClient.post("/threads/" + thread + "/runs/stream",
                json(run("too deep", "config", Map.of("recursion_limit", 1))))) {
            List<SseClient.Sse> events = s.toEnd(LONG);
            assertThat(events.get(events.size() - 1).event()).isEqualTo("error");
            assertThat(status(thread, runId(s))).isEqualTo("error");
            failed = runId(s);
        }
        assertThat(threadStatus(thread)).isEqualTo("error");
        JsonNode failedAt = state(thread);
        assertThat(failedAt.path("checkpoint_id").asText()).isNotEqualTo(before);
        assertThat(contents(failedAt.path("values"))).containsSubsequence("first", "too deep");
        String next = start(thread, run("and now"));
        assertThat(contents(join(thread, next))).containsSubsequence("first", "too deep", "and now");
        assertThat(status(thread, next)).isEqualTo("success");
        assertThat(threadStatus(thread)).isEqualTo("idle");
        List<io.conduit.runs.events.RunEvent> failedRun = ProtocolEventsOnSimulatorTest.ofRun(
                protocolRunsEnded(recorder, List.of(first, failed, next), "completed", "failed", "completed"), failed);
        assertThat(ProtocolRecorder.data(failedRun.get(failedRun.size() - 1)).get("error").asText()).isNotBlank();
        recorder.close();
    }

    // ---- stateless runs

    @Test
    void aStatelessRunsThreadGoesWithItUnlessKept() {
        try (SseClient s = SseClient.post("/runs/stream", json(run("no thread")))) {
            assertThat(s.status()).isEqualTo(200);
            assertThat(s.response.headers().firstValue("Content-Location").orElseThrow()).startsWith("/runs/");
            String location = s.response.headers().firstValue("Location").orElseThrow();
            String tmp = location.split("/")[2];
            List<SseClient.Sse> events = s.toEnd(LONG);
            assertThat(events.get(events.size() - 1).event()).isEqualTo("end");
            assertThat(contents(events.stream().filter(e -> e.event().equals("values")).reduce((a, b) -> b).orElseThrow().data()))
                    .contains("no thread");
            given().when().get("/threads/{t}", tmp).then().statusCode(404);
            given().when().get("/threads/{t}/runs", tmp).then().statusCode(200).body("size()", equalTo(0));
        }
        Response kept = given().contentType("application/json").body(run("keep it", "on_completion", "keep")).when().post("/runs/wait");
        assertThat(kept.statusCode()).isEqualTo(200);
        assertThat(contents(Api.tree(kept.asString()))).contains("keep it");
        String runId = kept.header("Content-Location").substring("/runs/".length());
        String bg = given().contentType("application/json").body(run("background", "on_completion", "keep")).when().post("/runs")
                .then().statusCode(200).extract().path("thread_id");
        String bgRun = given().when().get("/threads/{t}/runs", bg).then().statusCode(200).extract().path("[0].run_id");
        assertThat(contents(join(bg, bgRun))).contains("background");
        assertThat(runId).isNotBlank();
        given().contentType("application/json").body(Map.of("assistant_id", "agent", "command", Map.of("resume", "yes")))
                .when().post("/runs/wait").then().statusCode(400).body("code", equalTo("bad_request"));
    }

    // ---- thread delete

    @Test
    void deletingAThreadTakesItsCheckpointsAndRunsAndIsRefusedWhileARunIsInFlight() {
        String thread = newThread("delete");
        String done = start(thread, run("first"));
        join(thread, done);
        String pending = start(thread, run("later", "after_seconds", 60));
        given().when().delete("/threads/{t}", thread).then().statusCode(409).body("code", equalTo("thread_busy"));
        given().when().post("/threads/{t}/runs/{r}/cancel?wait=1", thread, pending).then().statusCode(200);
        given().when().delete("/threads/{t}", thread).then().statusCode(204);
        given().when().get("/threads/{t}", thread).then().statusCode(404);
        given().when().get("/threads/{t}/state", thread).then().statusCode(404);
        given().when().get("/threads/{t}/runs/{r}", thread, done).then().statusCode(404);
        given().when().delete("/threads/{t}", thread).then().statusCode(404);
        // the id can be used again, and nothing of the old thread comes back
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        assertThat(state(thread).path("checkpoint").isNull()).isTrue();
        given().when().get("/threads/{t}/runs", thread).then().statusCode(200).body("size()", equalTo(0));
        assertThat(contents(join(thread, start(thread, run("fresh"))))).doesNotContain("first").contains("fresh");
    }

}
