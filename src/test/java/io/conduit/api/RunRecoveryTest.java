package io.conduit.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.conduit.agent.AgentState;
import io.conduit.agent.LlmCall;
import io.conduit.agent.message.AssistantMessage;
import io.conduit.agent.message.ChatMessage;
import io.conduit.agent.message.ToolMessage;
import io.conduit.agent.message.UserMessage;
import io.conduit.checkpoint.CheckpointSource;
import io.conduit.graph.CompiledGraph;
import io.conduit.graph.GraphEvent;
import io.conduit.graph.State;
import io.conduit.graph.StateSnapshot;
import io.conduit.runs.Run;
import io.conduit.runs.RunStore;
import io.conduit.runs.graphs.GraphBeans;
import io.conduit.runs.graphs.GraphRegistry;
import io.conduit.runs.graphs.RunRequests;
import io.conduit.runs.worker.RunExecutor;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Start-up recovery, in one JVM: a run that a dead process left {@code running} (held by a worker that no longer
 * exists) after it had executed part of its turn is requeued by {@link RunExecutor#recover} and resumed from its last
 * checkpoint: the steps it had finished are not run again, and the turn ends once, with the answer.
 * (The same with a real process killed with SIGKILL: {@link ProcessCrashTest}.)
 */
@QuarkusTest
@TestProfile(RunRecoveryTest.LongLease.class)
class RunRecoveryTest {

    /**
     * A lease of two hours: the worker's own heartbeat (every lease / 3) never runs during the test, so the recovery
     * the test calls is the one that finds the orphans (on a loaded machine the periodic one could take them first).
     */
    public static class LongLease implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("conduit.runs.lease", "2h");
        }
    }

    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    RunExecutor executor;
    @Inject
    RunStore runs;
    @Inject
    GraphRegistry graphs;
    @Inject
    Pool pool;

    @Test
    void aRunLeftRunningByADeadWorkerResumesFromItsLastCheckpointAndRunsOnlyWhatWasLeft() throws Exception {
        String thread = "crash-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        // the run as the API records it; delayed, so that this process's worker leaves it alone for now
        String runId = given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "after_seconds", 3600, "durability", "sync",
                        "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week")))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
        // another worker claimed it, and has not renewed its hold for a day ...
        pool.preparedQuery("UPDATE conduit_runs SET status = 'running', worker_id = 'a-worker-that-died', not_before = now(), "
                        + "updated_at = now() - interval '1 day' WHERE run_id = $1")
                .execute(Tuple.of(runId)).await().atMost(WAIT);
        // ... and ran it up to the generator, where its process died: ingress, planner, tools, verifier, planner,
        // tool, verifier are checkpointed
        Run run = runs.get(runId).await().atMost(WAIT).orElseThrow();
        CompiledGraph agent = graphs.byGraphId(GraphBeans.AGENT).graph();
        agent.stream(RunRequests.from(run, graphs.byGraphId(GraphBeans.AGENT)))
                .select().where(e -> e instanceof GraphEvent.TaskStarted && "generator".equals(e.tag().node()))
                .toUni().await().atMost(WAIT);
        StateSnapshot before = agent.state(thread).await().atMost(WAIT).orElseThrow();
        assertThat(before.next()).containsExactly("generator");
        int checkpointsBefore = agent.history(thread, 100, null).await().atMost(WAIT).size();

        // a run that a live worker (on another replica) holds and renews is none of this process's business
        String other = "alive-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", other)).when().post("/threads").then().statusCode(200);
        String otherRun = given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "after_seconds", 3600, "input", Map.of("messages", List.of(Map.of("role", "user", "content", "hi")))))
                .when().post("/threads/{t}/runs", other).then().statusCode(200).extract().path("run_id");
        pool.preparedQuery("UPDATE conduit_runs SET status = 'running', worker_id = 'a-live-worker', updated_at = now() WHERE run_id = $1")
                .execute(Tuple.of(otherRun)).await().atMost(WAIT);

        // start-up recovery, as WorkerBeans does it
        List<Run> found = executor.recover().await().atMost(WAIT);
        assertThat(found).extracting(Run::runId).contains(runId).doesNotContain(otherRun);
        assertThat(runs.get(otherRun).await().atMost(WAIT).orElseThrow().workerId()).isEqualTo("a-live-worker");
        executor.wake();

        String status = awaitEnd(thread, runId);
        assertThat(status).isEqualTo("success");
        State after = agent.state(thread).await().atMost(WAIT).orElseThrow().values();
        List<ChatMessage> messages = after.get(AgentState.MESSAGES).asList();
        assertThat(messages.stream().filter(m -> m instanceof UserMessage)).as("the turn was not started again").hasSize(1);
        assertThat(messages.stream().filter(m -> m instanceof ToolMessage)).as("no tool was called again").hasSize(3);
        assertThat(messages.get(messages.size() - 1)).isInstanceOf(AssistantMessage.class);
        assertThat(messages.get(messages.size() - 1).content()).startsWith("Here is a plan for your week");
        List<String> stages = after.get(AgentState.LLM_CALLS).asList().stream().map(LlmCall::stage).toList();
        assertThat(stages.stream().filter("planner"::equals)).as("the planner was not asked again").hasSize(2);
        assertThat(stages.stream().filter("generator"::equals)).hasSize(1);
        // the checkpoints before the crash are still the thread's history, and the resumed run added to them
        List<StateSnapshot> history = agent.history(thread, 100, null).await().atMost(WAIT);
        assertThat(history.size()).isGreaterThan(checkpointsBefore);
        assertThat(history).filteredOn(s -> s.source() == CheckpointSource.INPUT).hasSize(1);
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("idle"));
        assertThat(runs.get(otherRun).await().atMost(WAIT).orElseThrow().status()).isEqualTo(io.conduit.runs.RunStatus.RUNNING);
        pool.preparedQuery("DELETE FROM conduit_runs WHERE run_id = $1").execute(Tuple.of(otherRun)).await().atMost(WAIT);
    }

    @Test
    void aRunWhoseProcessDiedAfterItStoppedAtABreakpointEndsInterruptedWithoutGoingOn() throws Exception {
        String thread = "crash-bp-" + UUID.randomUUID();
        given().contentType("application/json").body(Map.of("thread_id", thread)).when().post("/threads").then().statusCode(200);
        String runId = given().contentType("application/json")
                .body(Map.of("assistant_id", "agent", "after_seconds", 3600, "interrupt_before", List.of("tool_executor"),
                        "input", Map.of("messages", List.of(Map.of("role", "user", "content", "Please plan my week")))))
                .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
        pool.preparedQuery("UPDATE conduit_runs SET status = 'running', worker_id = 'a-worker-that-died', not_before = now(), "
                        + "updated_at = now() - interval '1 day' WHERE run_id = $1")
                .execute(Tuple.of(runId)).await().atMost(WAIT);
        // the dead process ran it to its breakpoint, and died before recording that it had stopped there
        Run run = runs.get(runId).await().atMost(WAIT).orElseThrow();
        CompiledGraph agent = graphs.byGraphId(GraphBeans.AGENT).graph();
        GraphEvent last = agent.stream(RunRequests.from(run, graphs.byGraphId(GraphBeans.AGENT))).collect().last().await().atMost(WAIT);
        assertThat(last).isInstanceOf(GraphEvent.Interrupted.class);
        String stoppedAt = agent.state(thread).await().atMost(WAIT).orElseThrow().checkpointId();

        assertThat(executor.recover().await().atMost(WAIT)).extracting(Run::runId).contains(runId);
        executor.wake();
        assertThat(awaitEnd(thread, runId)).isEqualTo("interrupted");
        StateSnapshot after = agent.state(thread).await().atMost(WAIT).orElseThrow();
        assertThat(after.checkpointId()).as("nothing ran past the breakpoint").isEqualTo(stoppedAt);
        assertThat(after.next()).contains("tool_executor");
        given().when().get("/threads/{t}", thread).then().statusCode(200).body("status", org.hamcrest.Matchers.equalTo("interrupted"));
    }

    /**
     * The run's status once it has ended: its join answers when its stream ends, which is after its end and its
     * thread's status are recorded (the status alone is written a moment before the thread's).
     */
    static String awaitEnd(String thread, String runId) throws Exception {
        java.net.http.HttpResponse<String> joined = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + "/threads/" + thread + "/runs/" + runId + "/join"))
                .timeout(WAIT).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(joined.statusCode()).as(joined.body()).isEqualTo(200);
        return given().when().get("/threads/{t}/runs/{r}", thread, runId).then().statusCode(200).extract().path("status");
    }
}
