package io.conduit.api;

import static io.conduit.api.Api.join;
import static io.conduit.api.Api.newThread;
import static io.conduit.api.Api.run;
import static io.conduit.api.Api.start;
import static io.conduit.api.Api.state;
import static io.conduit.api.ProtocolRecorder.data;
import static io.conduit.api.ProtocolRecorder.json;
import static io.conduit.api.ProtocolRecorder.label;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.conduit.runs.events.Collecting;
import io.conduit.runs.events.RunEvent;
import io.conduit.stream.ProtocolEventLogs;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The thread protocol's events of real runs of the assistant (the simulator model over HTTP, the tools, Postgres), read
 * from the protocol log bean as the transports read it: a turn with parallel tool calls, a re-plan and a streamed
 * answer; an interrupt and the run that answers it. Whatever API starts a run, these events are written.
 */
@QuarkusTest
@TestProfile(LangGraphSdkClientTest.ClarifyAfterOneRetry.class)
class ProtocolEventsOnSimulatorTest {

    static final Duration LONG = Duration.ofSeconds(60);
    static final Map<String, Object> USER = Map.of("configurable", Map.of("user_id", "protocol"));

    @Inject
    ProtocolEventLogs protocol;

    @Inject
    RunEventLogs classic;

    /** What holds for every run: one running first, one root terminal last, seqs increasing, the wire JSON matching the log's fields. */
    static void wellFormedRun(List<RunEvent> run) {
        assertThat(label(run.get(0))).isEqualTo("lifecycle:running@");
        assertThat(run.stream().filter(RunEvent::terminal).toList()).containsExactly(run.get(run.size() - 1));
        long last = -1;
        Map<String, String> openMessage = new HashMap<>();
        Map<String, Integer> openBlock = new HashMap<>();
        for (RunEvent e : run) {
            JsonNode j = json(e);
            assertThat(e.seq()).isGreaterThan(last);
            last = e.seq();
            assertThat(j.get("event_id").asText()).isEqualTo(String.valueOf(e.seq()));
            assertThat(j.get("seq").asLong()).isEqualTo(e.seq());
            assertThat(j.get("method").asText()).isEqualTo(e.mode());
            List<String> ns = new ArrayList<>();
            j.path("params").path("namespace").forEach(s -> ns.add(s.asText()));
            assertThat(String.join("|", ns)).isEqualTo(e.ns());
            if (e.mode().equals("messages")) {
                // per namespace: one message at a time, one block at a time
                JsonNode d = data(e);
                switch (d.get("event").asText()) {
                    case "message-start" -> assertThat(openMessage.put(e.ns(), d.get("id").asText())).isNull();
                    case "content-block-start" -> assertThat(openBlock.put(e.ns(), d.get("index").asInt())).isNull();
                    case "content-block-delta" -> assertThat(openBlock.get(e.ns())).isEqualTo(d.get("index").asInt());
                    case "content-block-finish" -> assertThat(openBlock.remove(e.ns())).isEqualTo(d.get("index").asInt());
                    case "message-finish", "error" -> {
                        assertThat(openMessage.remove(e.ns())).isNotNull();
                        openBlock.remove(e.ns());
                    }
                    default -> throw new AssertionError("unknown message event " + d);
                }
            }
        }
    }

    static List<RunEvent> ofRun(List<RunEvent> events, String runId) {
        return events.stream().filter(e -> e.runId().equals(runId)).toList();
    }

    /** The text streamed for each message id (its text deltas, in order). */
    static Map<String, String> streamedTexts(List<RunEvent> run) {
        Map<String, String> current = new HashMap<>();
        Map<String, StringBuilder> texts = new HashMap<>();
        for (RunEvent e : run) {
            if (!e.mode().equals("messages")) {
                continue;
            }
            JsonNode d = data(e);
            if (d.get("event").asText().equals("message-start")) {
                current.put(e.ns(), d.get("id").asText());
                texts.put(d.get("id").asText(), new StringBuilder());
            } else if (d.path("delta").path("type").asText().equals("text-delta")) {
                texts.get(current.get(e.ns())).append(d.get("delta").get("text").asText());
            }
        }
        Map<String, String> out = new HashMap<>();
        texts.forEach((k, v) -> out.put(k, v.toString()));
        return out;
    }

    @Test
    void aTurnWithParallelToolsAReplanAndAStreamedAnswer() {
        String thread = newThread("protocol-turn");
        try (ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread)) {
            String runId = start(thread, run("Please plan my week", "config", USER));
            List<RunEvent> run = ofRun(recorder.awaitRunsEnded(1, LONG), runId);
            join(thread, runId);

            wellFormedRun(run);
            assertThat(label(run.get(run.size() - 1))).isEqualTo("lifecycle:completed@");
            JsonNode messages = state(thread).path("values").path("messages");

            // the answer: its streamed id is the id in state, and what streamed is its content
            JsonNode answer = messages.get(messages.size() - 1);
            Map<String, String> streamed = streamedTexts(run);
            assertThat(streamed).containsKey(answer.get("id").asText());
            assertThat(streamed.get(answer.get("id").asText())).isEqualTo(answer.get("content").asText()).startsWith("Here is a plan for your week");

            // its message-finish carries the model call's usage, the same as usage_metadata on the message in state
            String answerNs = run.stream().filter(e -> e.mode().equals("messages") && data(e).get("event").asText().equals("message-start")
                    && data(e).get("id").asText().equals(answer.get("id").asText())).findFirst().orElseThrow().ns();
            JsonNode finish = run.stream().filter(e -> e.mode().equals("messages") && e.ns().equals(answerNs)).map(ProtocolRecorder::data)
                    .filter(d -> d.get("event").asText().equals("message-finish")).findFirst().orElseThrow();
            assertThat(finish.get("usage").get("output_tokens").asInt()).isPositive();
            assertThat(finish.get("usage")).isEqualTo(answer.get("usage_metadata"));

            // the planner's tool calls: argument deltas, finished as tool calls with the ids in state, run as tool events
            Set<String> callIds = new HashSet<>();
            messages.forEach(m -> m.path("tool_calls").forEach(c -> callIds.add(c.get("id").asText())));
            assertThat(callIds).hasSizeGreaterThanOrEqualTo(3);
            List<JsonNode> finished = run.stream().filter(e -> e.mode().equals("messages")).map(ProtocolRecorder::data)
                    .filter(d -> d.get("event").asText().equals("content-block-finish") && d.get("content").get("type").asText().equals("tool_call"))
                    .map(d -> d.get("content")).toList();
            assertThat(finished.stream().map(c -> c.get("id").asText()).toList()).containsExactlyInAnyOrderElementsOf(callIds);
            assertThat(finished).allMatch(c -> c.get("args").isObject());
            assertThat(run.stream().map(ProtocolRecorder::data).filter(d -> d.path("delta").path("type").asText().equals("tool-call-delta")))
                    .hasSizeGreaterThan(callIds.size());
            List<RunEvent> tools = run.stream().filter(e -> e.mode().equals("tools")).toList();
            assertThat(tools.stream().filter(e -> data(e).get("event").asText().equals("tool-started")).map(e -> data(e).get("tool_call_id").asText()))
                    .containsExactlyInAnyOrderElementsOf(callIds);
            assertThat(tools.stream().filter(e -> !data(e).get("event").asText().equals("tool-started"))).hasSize(callIds.size());
            assertThat(tools).allMatch(e -> e.ns().startsWith("tool_executor:"));
            assertThat(tools.stream().map(RunEvent::ns).distinct()).hasSize(callIds.size()); // each call its own task

            // every task opens and closes its namespace; the re-plan is a custom event; state comes normalized
            Map<String, List<String>> lifecycles = new HashMap<>();
            run.stream().filter(e -> e.mode().equals("lifecycle") && !e.ns().isEmpty())
                    .forEach(e -> lifecycles.computeIfAbsent(e.ns(), k -> new ArrayList<>()).add(data(e).get("event").asText()));
            assertThat(lifecycles.keySet()).anyMatch(ns -> ns.startsWith("planner:")).anyMatch(ns -> ns.startsWith("generator:"));
            assertThat(lifecycles.values()).allMatch(l -> l.equals(List.of("started", "completed")));
            assertThat(run.stream().filter(e -> e.mode().equals("custom:planning_retry"))).hasSize(1);
            JsonNode values = data(run.stream().filter(e -> e.mode().equals("values")).reduce((a, b) -> b).orElseThrow());
            JsonNode lastValue = values.get("messages").get(values.get("messages").size() - 1);
            assertThat(lastValue.get("id").asText()).isEqualTo(answer.get("id").asText());
            assertThat(lastValue.get("content").get(0).get("text").asText()).isEqualTo(answer.get("content").asText());
            List<RunEvent> checkpoints = run.stream().filter(e -> e.mode().equals("checkpoints") && e.ns().isEmpty()).toList();
            for (int i = 1; i < checkpoints.size(); i++) {
                assertThat(data(checkpoints.get(i)).get("parent_id")).isEqualTo(data(checkpoints.get(i - 1)).get("id"));
            }

            // the classic stream numbers its frames of the same run from the same first seq, one by one
            List<RunEvent> classicEvents = new ArrayList<>();
            classic.log(thread).subscribeThread(-1L, Collecting.into(classicEvents)).cancel();
            List<Long> classicSeqs = ofRun(classicEvents, runId).stream().map(RunEvent::seq).toList();
            assertThat(classicSeqs).isNotEmpty().isSorted().doesNotHaveDuplicates();
            assertThat(classicSeqs.get(0)).isEqualTo(run.get(0).seq());
            assertThat(classicSeqs.get(classicSeqs.size() - 1) - classicSeqs.get(0)).isEqualTo(classicSeqs.size() - 1);
        }
    }

    @Test
    void anInterruptAsksBeforeTheRunEndsInterruptedAndTheResumingRunSaysItIsAnswered() {
        String thread = newThread("protocol-interrupt");
        try (ProtocolRecorder recorder = ProtocolRecorder.of(protocol, thread)) {
            String first = start(thread, run("What do you know about my piano?", "config", USER));
            List<RunEvent> asked = ofRun(recorder.awaitRunsEnded(1, LONG), first);
            wellFormedRun(asked);
            assertThat(label(asked.get(asked.size() - 1))).isEqualTo("lifecycle:interrupted@");
            List<RunEvent> requests = asked.stream().filter(e -> e.mode().equals("input.requested")).toList();
            assertThat(requests).hasSize(1);
            JsonNode request = data(requests.get(0));
            JsonNode pending = state(thread).path("interrupts");
            assertThat(request.get("interrupt_id").asText()).isEqualTo(pending.get(0).get("id").asText());
            assertThat(request.get("payload").get("question").asText()).endsWith("Can you tell me more?");
            assertThat(requests.get(0).ns()).isEmpty();
            assertThat(asked.stream().filter(e -> e.mode().equals("lifecycle") && e.ns().startsWith("verifier:")).map(e -> data(e).get("event").asText()))
                    .containsExactly("started", "completed", "started", "interrupted"); // the first check re-plans, the second asks

            String second = given().contentType("application/json")
                    .body(Map.of("assistant_id", "agent", "command", Map.of("resume", "It is a grand piano"), "config", USER))
                    .when().post("/threads/{t}/runs", thread).then().statusCode(200).extract().path("run_id");
            List<RunEvent> all = recorder.awaitRunsEnded(2, LONG);
            List<RunEvent> resumed = ofRun(all, second);
            wellFormedRun(resumed);
            assertThat(resumed.get(0).seq()).isGreaterThan(asked.get(asked.size() - 1).seq());
            assertThat(label(resumed.get(1))).isEqualTo("input.answered@");
            assertThat(data(resumed.get(1)).get("interrupt_ids").get(0).asText()).isEqualTo(request.get("interrupt_id").asText());
            assertThat(label(resumed.get(resumed.size() - 1))).isEqualTo("lifecycle:completed@");
            JsonNode messages = join(thread, second).path("messages");
            assertThat(streamedTexts(resumed).get(messages.get(messages.size() - 1).get("id").asText())).contains("It is a grand piano");
        }
    }
}
